import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { IndexedThreads } from "../../src/recording/indexedThreads";
import { Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import { WALK_STEP_ROWS } from "../../src/recording/outboxWalk";
import { HELD_TURN_AT } from "../../src/recording/turnMarks";
import { newWorkspace, shardStub } from "../support/coordinator";

// Issue 43, point 3: a thread's place and its next turn are answered from the shard's memory of its
// threads once its walk is complete (recording/indexedThreads.ts), and read from the index otherwise.

const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };

/** Rows an instance before this one left, written straight into a fresh object's table: `fillers` waiting rows (no turns), then one turn. */
function inherited(state: DurableObjectState, team: string, fillers: number, turn: { key: string; conversation: string }) {
  applyMigrations(state.storage);
  const now = Date.now();
  state.storage.sql.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO outbox (idempotency_key, workspace, effect, payload, status, next_attempt_at, created_at)
     SELECT 'A-' || printf('%06d', i), ?2, 'slack.api', '{}', 'pending', ?3, ?3 FROM n`,
    Math.max(fillers, 1),
    team,
    now + 3_600_000,
  );
  // An indexed turn held behind a lead that has ended: it holds its thread (it is pending).
  state.storage.sql.exec(
    `INSERT INTO outbox (idempotency_key, workspace, effect, payload, status, next_attempt_at, created_at, turn, turn_seq)
     VALUES (?1, ?2, 'slack.api', '{}', 'pending', ${HELD_TURN_AT}, ?3, ?4, 1)`,
    turn.key,
    team,
    now,
    turn.conversation,
  );
}

/** Statements `read` ran through the outbox's door. */
function statementsOf<T>(sql: MeteredSql, read: () => T): { value: T; statements: number } {
  const before = sql.statements;
  const value = read();
  return { value, statements: sql.statements - before };
}

describe("a thread's turns answered from the shard's memory", () => {
  it("a free thread's place and next turn run no statement once the walk is complete; an indexed turn there makes them read, until a read finds none", async () => {
    const team = newWorkspace();
    const seen = await runInDurableObject(shardStub(team), (_, state) => {
      applyMigrations(state.storage);
      const sql = new MeteredSql(state.storage.sql, state.storage);
      const outbox = new Outbox(sql);
      const conversation = `${team}:C1:1.000001`;
      const place = () => statementsOf(sql, () => outbox.turns.place(conversation, 1));
      const pending = () => statementsOf(sql, () => outbox.turns.pending(conversation));
      outbox.walked();
      const free = { place: place(), pending: pending() };
      outbox.enqueue([{ ...newRow("lead", team, effect), turn: outbox.turns.place(conversation, 1) }], Date.now(), null);
      outbox.enqueue([{ ...newRow("second", team, effect), turn: outbox.turns.place(conversation, 1) }], Date.now(), null);
      const behind = { place: place(), pending: pending() };
      state.storage.sql.exec("DELETE FROM outbox WHERE idempotency_key IN ('lead', 'second')");
      outbox.turns.ended(conversation, "lead");
      const emptied = pending(); // reads the index once, finds none: forgets the thread
      return { free, behind, emptied, after: { place: place(), pending: pending() } };
    });
    expect(seen.free.place).toEqual({ value: { conversation: `${team}:C1:1.000001`, seq: null, waits: false }, statements: 0 });
    expect(seen.free.pending).toEqual({ value: false, statements: 0 });
    expect(seen.behind.place.value).toMatchObject({ seq: 2, after: "lead", waits: true });
    expect(seen.behind.place.statements).toBeGreaterThan(0);
    expect(seen.behind.pending).toEqual({ value: true, statements: 1 });
    expect(seen.emptied).toEqual({ value: false, statements: 1 });
    expect(seen.after.place).toEqual({ value: { conversation: `${team}:C1:1.000001`, seq: null, waits: false }, statements: 0 });
    expect(seen.after.pending).toEqual({ value: false, statements: 0 });
  });

  it("an indexed turn a previous instance left is waited for: found by the walk, or read from the index while the walk goes on", async () => {
    const places = [];
    for (const fillers of [10, 2 * WALK_STEP_ROWS]) {
      const team = newWorkspace();
      const conversation = `${team}:C1:1.000001`;
      places.push(
        await runInDurableObject(shardStub(team), (_, state) => {
          inherited(state, team, fillers, { key: "Z-held", conversation });
          const outbox = new Outbox(new MeteredSql(state.storage.sql, state.storage));
          return {
            walked: outbox.walked(),
            pending: outbox.turns.pending(conversation),
            place: outbox.turns.place(conversation, 1),
          };
        }),
      );
    }
    expect(places).toEqual([
      { walked: true, pending: true, place: expect.objectContaining({ seq: 2, waits: true }) },
      { walked: false, pending: true, place: expect.objectContaining({ seq: 2, waits: true }) },
    ]);
  });
});

describe("the memory of threads with indexed turns is bounded", () => {
  it("past the threads it keeps, it gives up: every thread is read again, none is called free", () => {
    const threads = new IndexedThreads(2);
    threads.noted("a");
    threads.noted("b");
    const whileKept = [threads.free("a"), threads.free("c")];
    threads.noted("c");
    expect(whileKept).toEqual([false, true]);
    expect([threads.free("a"), threads.free("c"), threads.free("d")]).toEqual([false, false, false]);
  });
});
