import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import { WALK_STEP_ROWS } from "../../src/recording/outboxWalk";
import { STATUS_OF } from "../../src/recording/rowStatus";
import { HELD_TURN_AT, LEAD_UNKNOWN } from "../../src/recording/turnMarks";
import { newWorkspace, shardStub } from "../support/coordinator";

const LEASE_MS = 60_000;
const effect = { type: "slack.api" as const, method: "chat.postMessage", body: { channel: "C1", text: "hi" } };

/**
 * Rows as a backlog leaves them, written straight into the table (a payload of 1 KB each): waiting
 * for a retry an hour away, leased to an attempt still running, or parked.
 */
function seedBacklog(state: DurableObjectState, team: string, rows: { waiting: number; leased: number; parked: number }) {
  applyMigrations(state.storage);
  const now = Date.now();
  const seed = (prefix: string, n: number, status: string, token: string | null, expires: number | null) =>
    state.storage.sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO outbox (idempotency_key, workspace, effect, payload, status, next_attempt_at, claim_token, claim_expires_at, created_at, parked_at)
       SELECT ? || printf('%06d', i), ?, 'slack.api', hex(randomblob(512)), ?, ?, ?, ?, ?, CASE WHEN ? = 'parked' THEN ? END FROM n`,
      n,
      prefix,
      team,
      status,
      now + 3_600_000,
      token,
      expires,
      now - 60_000,
      status,
      now,
    );
  seed("Ev-wait-", rows.waiting, "pending", null, null);
  seed("Ev-lease-", rows.leased, "pending", "running", now + LEASE_MS);
  seed("Ev-park-", rows.parked, "parked", null, null);
}

/** The outbox of a fresh view over the object's storage, and its door's meter. */
function outboxOver(state: DurableObjectState) {
  const sql = new MeteredSql(state.storage.sql, state.storage);
  return { sql, outbox: new Outbox(sql) };
}

/** Rows `read` read, by the same meter Cloudflare bills. */
function rowsReadBy(sql: MeteredSql, read: () => unknown): number {
  const before = sql.rowsRead;
  read();
  return sql.rowsRead - before;
}

describe("a backlog does not slow the hot path (each statement reads an index range or keys)", () => {
  it("with 20,000 rows waiting, leased and parked, a claim, a wake-up, the counts, the next row's age, the dead-letter list and a stop each read a few rows", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => seedBacklog(state, team, { waiting: 10_000, leased: 5_000, parked: 5_000 }));
    // A new instance: what it inherits, it learns by its walk, which is done before the reads below.
    await evictDurableObject(stub);
    const reads = await runInDurableObject(stub, (_, state) => {
      const { sql, outbox } = outboxOver(state);
      outbox.walkOn(60_000);
      const now = Date.now();
      outbox.enqueue([newRow("Ev-new:reply", team, effect)], now, null);
      return {
        walkedAll: outbox.memory.walk.complete,
        counts: outbox.countsByStatus(),
        claim: rowsReadBy(sql, () => outbox.claimBatch("sweep", now, LEASE_MS, 10)),
        wake: rowsReadBy(sql, () => outbox.nextWakeAt()),
        counted: rowsReadBy(sql, () => outbox.countsByStatus()),
        nextInLine: rowsReadBy(sql, () => outbox.nextInLineSince()),
        parkedList: rowsReadBy(sql, () => outbox.parked.list(50, { newestBefore: null })),
        stop: rowsReadBy(sql, () =>
          outbox.stopped.stopConversationRuns(`${team}:C1:1.000001`, "U1", "Ev-stop", "stopped by user", now, []),
        ),
        claimedNothingElse: outbox.claimedBy("sweep").map((row) => row.idempotency_key),
      };
    });
    expect(reads.walkedAll).toBe(true);
    expect(reads.counts).toEqual({ pending: 15_001, parked: 5_000, stopped: 0 });
    // The one due row is claimed (not the 10,000 due in an hour, nor the 5,000 leased out).
    expect(reads.claimedNothingElse).toEqual(["Ev-new:reply"]);
    expect(reads.claim).toBeLessThan(20);
    expect(reads.wake).toBeLessThan(20);
    expect(reads.counted).toBe(0);
    expect(reads.nextInLine).toBeLessThan(5);
    expect(reads.parkedList).toBeLessThan(120);
    expect(reads.stop).toBeLessThan(5);
  });

  it("leases of the instance before are found by the walk and taken over once they run out", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => seedBacklog(state, team, { waiting: 0, leased: 3 * WALK_STEP_ROWS, parked: 0 }));
    await evictDurableObject(stub);
    const taken = await runInDurableObject(stub, (_, state) => {
      const { outbox } = outboxOver(state);
      const before = outbox.claimBatch("early", Date.now(), LEASE_MS, 10_000).length;
      outbox.walkOn(60_000);
      const later = Date.now() + LEASE_MS + 1;
      const after = outbox.claimBatch("taker", later, LEASE_MS, 10_000);
      return {
        before,
        after: after.length,
        uncertain: after.every((row) => row.posts_uncertain_since !== null),
        wakeAt: outbox.nextWakeAt(),
        later,
      };
    });
    // Still leased: nothing to take before they run out; then all of them, marked uncertain (their attempt may have posted).
    expect(taken.before).toBe(0);
    expect(taken.after).toBe(3 * WALK_STEP_ROWS);
    expect(taken.uncertain).toBe(true);
    expect(taken.wakeAt).toBe(taken.later + LEASE_MS);
  });
});

describe("the walk of what an instance inherits", () => {
  it("counts stay exact while rows change on both sides of the walk's place, and after it", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => seedBacklog(state, team, { waiting: 400, leased: 300, parked: 300 }));
    await evictDurableObject(stub);
    const result = await runInDurableObject(stub, (_, state) => {
      const { outbox } = outboxOver(state);
      const now = Date.now();
      outbox.walked(); // its first step only: the keys of "Ev-lease-…" come first
      const midway = outbox.memory.walk.complete;
      // Behind the walk's place (already counted) and ahead of it (not yet read).
      outbox.complete("Ev-lease-000001", "running");
      outbox.complete("Ev-wait-000400", "missing-token"); // fenced out: nothing changes
      outbox.claimBatch("t", now + 2 * LEASE_MS, LEASE_MS, 0);
      outbox.parked.replay(now, ["Ev-park-000300", "Ev-lease-000002"]);
      outbox.parked.discard(["Ev-park-000299"]);
      outbox.enqueue([newRow("Ev-aaa:first", team, effect), newRow("Ev-zzz:last", team, effect)], now, null);
      // A thread's lead (a turn: it has its conversation), stopped by an interrupt.
      state.storage.sql.exec("UPDATE outbox SET turn = 'none' WHERE idempotency_key = 'Ev-wait-000001'");
      outbox.turns.interrupt(
        { conversation: "none", seq: 1, waits: true, after: "Ev-wait-000001" },
        "interrupted",
        now,
        "anyone",
      );
      // Rows stopped under their running attempt (a stop, an interrupt), then settled by that attempt: completed, or stopped.
      state.storage.sql.exec(
        "UPDATE outbox SET status = 'parked', stopped_at = ?1 WHERE idempotency_key IN ('Ev-lease-000003', 'Ev-lease-000004')",
        now,
      );
      outbox.memory.counts.moved(["Ev-lease-000003", "Ev-lease-000004"], "pending", "stopped");
      outbox.complete("Ev-lease-000003", "running");
      outbox.stopped.stop("Ev-lease-000004", "running", 1, "stopped by user", now, () => [], null);
      outbox.walkOn(60_000);
      const kept = outbox.countsByStatus();
      const counted: Record<string, number> = {};
      for (const row of state.storage.sql.exec<{ status: string; n: number }>(
        `SELECT ${STATUS_OF("outbox")} AS status, count(*) AS n FROM outbox WHERE done_at IS NULL GROUP BY 1`,
      ))
        counted[row.status] = row.n;
      return { midway, kept, counted };
    });
    expect(result.midway).toBe(false);
    expect(result.kept).toEqual({
      pending: result.counted.pending,
      parked: result.counted.parked,
      stopped: result.counted.stopped,
    });
    // The interrupt and the stops under running attempts leave `parked` alone: they are counted `stopped`.
    expect(result.kept).toEqual({ pending: 400 + 300 - 1 + 1 + 2 - 1 - 2, parked: 300 - 1 - 1, stopped: 1 + 2 - 1 });
  });

  it("a turn recorded before the walk knows its thread's lead waits for it, then names it; the lead's end lets it go", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const conversation = `${team}:C1:1.000001`;
    await runInDurableObject(stub, (_, state) => {
      seedBacklog(state, team, { waiting: 2 * WALK_STEP_ROWS, leased: 0, parked: 0 });
      const { outbox } = outboxOver(state);
      outbox.walkOn(60_000);
      // The thread's lead, its attempt running in the instance before (keys after every seeded one: read last).
      outbox.enqueue([{ ...newRow("Ev-zz-lead:run", team, effect), turn: outbox.turns.place(conversation, 1) }], Date.now(), {
        token: "before",
        expiresAt: Date.now() + LEASE_MS,
      });
    });
    await evictDurableObject(stub);
    const seen = await runInDurableObject(stub, (_, state) => {
      const { outbox } = outboxOver(state);
      const now = Date.now();
      const place = outbox.turns.place(conversation, 1);
      const [row] = outbox.enqueue([{ ...newRow("Ev-second:run", team, effect), turn: place }], now, {
        token: "now",
        expiresAt: now + LEASE_MS,
      });
      const stored = () =>
        state.storage.sql
          .exec<{ turn_after: string | null; next_attempt_at: number; claim_token: string | null }>(
            "SELECT turn_after, next_attempt_at, claim_token FROM outbox WHERE idempotency_key = 'Ev-second:run'",
          )
          .one();
      const whileWalking = { place, waits: row?.waitsForTurn === true, stored: stored() };
      outbox.walkOn(60_000);
      const walked = stored();
      const claimedWhileLeadRuns = outbox.claimBatch("t1", now + 1, LEASE_MS, 10, conversation).length;
      outbox.complete("Ev-zz-lead:run", "before");
      const claimedOnceEnded = outbox.claimBatch("t2", now + 2, LEASE_MS, 10, conversation).map((r) => r.idempotency_key);
      return { whileWalking, walked, claimedWhileLeadRuns, claimedOnceEnded };
    });
    expect(seen.whileWalking.place).toMatchObject({ after: LEAD_UNKNOWN, waits: true });
    expect(seen.whileWalking.waits).toBe(true);
    expect(seen.whileWalking.stored).toEqual({ turn_after: LEAD_UNKNOWN, next_attempt_at: HELD_TURN_AT, claim_token: null });
    expect(seen.walked.turn_after).toBe("Ev-zz-lead:run");
    expect(seen.claimedWhileLeadRuns).toBe(0);
    expect(seen.claimedOnceEnded).toEqual(["Ev-second:run"]);
  });

  it("a held turn whose lead ended in an instance that died before letting it go is made due by the next instance's walk", async () => {
    const team = newWorkspace();
    const stub = shardStub(team);
    const conversation = `${team}:C1:2.000001`;
    await runInDurableObject(stub, (_, state) => {
      applyMigrations(state.storage);
      const { outbox } = outboxOver(state);
      const now = Date.now();
      const lease = { token: "gone", expiresAt: now + LEASE_MS };
      outbox.enqueue([{ ...newRow("Ev-lead:run", team, effect), turn: outbox.turns.place(conversation, 1) }], now, lease);
      outbox.enqueue([{ ...newRow("Ev-held:run", team, effect), turn: outbox.turns.place(conversation, 1) }], now, lease);
      // The lead completes; its instance dies before the turn after it is claimed.
      outbox.complete("Ev-lead:run", "gone");
    });
    await evictDurableObject(stub);
    const claimed = await runInDurableObject(stub, (_, state) => {
      const { outbox } = outboxOver(state);
      return { claimed: outbox.claimBatch("sweep", Date.now() + 1, LEASE_MS, 10).map((row) => row.idempotency_key) };
    });
    expect(claimed.claimed).toEqual(["Ev-held:run"]);
  });
});
