import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS } from "../../src/platform/sql/migrations";
import { DEAD_LETTER, STOPPED } from "../../src/recording/rowStatus";

const STATUS_AT_0019 = "CASE WHEN stopped_at IS NULL THEN status ELSE 'stopped' END";

import { newWorkspace, shardStub } from "../support/coordinator";

type Row = Record<string, SqlStorageValue>;

/** A row as 0018 left `outbox`, with every column a later one must keep. */
function insertBefore0019(state: DurableObjectState, key: string, status: string, lastError: string | null): void {
  state.storage.sql.exec(
    `INSERT INTO outbox (idempotency_key, workspace, effect, payload, rate_key, status, attempts, next_attempt_at,
      claim_token, claim_expires_at, last_error, created_at, parked_at, steps, followed_up_at, claimed_at,
      posts_uncertain_since, turn, turn_seq, turn_after)
      VALUES (?1, 'T1', 'run', '{}', 'chat.postMessage:C1', ?2, 2, 5000, NULL, NULL, ?3, 1000,
        CASE ?2 WHEN 'parked' THEN 4000 END, '{"a":1}', 4000, 3000, 3500, 'T1:C1:1.0', 7, 'lead')`,
    key,
    status,
    lastError,
  );
}

describe("migration 0019_stopped_runs", () => {
  it("makes the runs parked for a stop stopped runs, outside the dead letters' index, and keeps every other row and column", async () => {
    const result = await runInDurableObject(shardStub(newWorkspace()), (_, state) => {
      const { sql } = state.storage;
      applyMigrations(
        state.storage,
        MIGRATIONS.filter((m) => m.id < 19),
      );
      insertBefore0019(state, "a:pending", "pending", null);
      insertBefore0019(state, "b:failed", "parked", "chat.postMessage: 200 not_in_channel");
      insertBefore0019(state, "c:stopped", "parked", "stopped by user");
      insertBefore0019(state, "d:interrupted", "parked", "interrupted by a newer message");
      // Up to 0019 only: later migrations are not this test's.
      const applied = applyMigrations(
        state.storage,
        MIGRATIONS.filter((m) => m.id <= 19),
      );
      const rows = sql.exec<Row>("SELECT * FROM outbox ORDER BY idempotency_key").toArray();
      const indexes = sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox' AND sql IS NOT NULL ORDER BY name",
        )
        .toArray()
        .map((index) => index.name);
      // Each list reads its own partial index: a stop is no dead letter.
      const keys = (query: string) =>
        sql
          .exec<{ k: string }>(query)
          .toArray()
          .map((row) => row.k);
      const deadLetters = keys(
        `SELECT idempotency_key AS k FROM outbox INDEXED BY outbox_parked WHERE ${DEAD_LETTER} ORDER BY 1`,
      );
      const stopped = keys(`SELECT idempotency_key AS k FROM outbox INDEXED BY outbox_stopped WHERE ${STOPPED} ORDER BY 1`);
      // The table is not rebuilt (its CHECK is 0001's, still refusing any other status).
      let refused = "";
      try {
        sql.exec("UPDATE outbox SET status = 'done' WHERE idempotency_key = 'b:failed'");
      } catch (error) {
        refused = String(error);
      }
      const statuses = sql
        // STATUS_OF as of 0019 (its `done` needs 0026's column, not applied here).
        .exec<Row>(`SELECT idempotency_key, ${STATUS_AT_0019} AS status FROM outbox ORDER BY idempotency_key`)
        .toArray();
      return { applied, rows, indexes, statuses, refused, deadLetters, stopped };
    });
    expect(result.applied).toEqual([19]);
    const kept = {
      workspace: "T1",
      effect: "run",
      payload: "{}",
      rate_key: "chat.postMessage:C1",
      attempts: 2,
      next_attempt_at: 5000,
      claim_token: null,
      claim_expires_at: null,
      created_at: 1000,
      steps: '{"a":1}',
      followed_up_at: 4000,
      claimed_at: 3000,
      posts_uncertain_since: 3500,
      turn: "T1:C1:1.0",
      turn_seq: 7,
      turn_after: "lead",
    };
    expect(result.rows).toEqual([
      { ...kept, idempotency_key: "a:pending", status: "pending", last_error: null, parked_at: null, stopped_at: null },
      {
        ...kept,
        idempotency_key: "b:failed",
        status: "parked",
        last_error: "chat.postMessage: 200 not_in_channel",
        parked_at: 4000,
        stopped_at: null,
      },
      {
        ...kept,
        idempotency_key: "c:stopped",
        status: "parked",
        last_error: "stopped by user",
        parked_at: 4000,
        stopped_at: 4000,
      },
      {
        ...kept,
        idempotency_key: "d:interrupted",
        status: "parked",
        last_error: "interrupted by a newer message",
        parked_at: 4000,
        stopped_at: 4000,
      },
    ]);
    expect(result.indexes).toEqual(["outbox_due", "outbox_parked", "outbox_stopped", "outbox_turns"]);
    expect(result.statuses).toEqual([
      { idempotency_key: "a:pending", status: "pending" },
      { idempotency_key: "b:failed", status: "parked" },
      { idempotency_key: "c:stopped", status: "stopped" },
      { idempotency_key: "d:interrupted", status: "stopped" },
    ]);
    expect(result.deadLetters).toEqual(["b:failed"]);
    expect(result.stopped).toEqual(["c:stopped", "d:interrupted"]);
    expect(result.refused).toMatch(/CHECK constraint failed/);
  });
});
