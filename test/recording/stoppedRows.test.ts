import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { Outbox } from "../../src/recording/outbox";
import { STOPPED_RETENTION_MS } from "../../src/recording/stoppedRows";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";

/** `n` stopped runs, written straight into the table, stopped at `at`. */
function seedStopped(state: DurableObjectState, team: string, prefix: string, n: number, at: number) {
  state.storage.sql.exec(
    // Stored as the code writes a stopped run: `parked` with `stopped_at` (migrations/0019_stopped_runs.sql).
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO outbox (idempotency_key, workspace, effect, payload, status, next_attempt_at, created_at, stopped_at, last_error)
     SELECT ? || printf('%06d', i), ?, 'run', '{}', 'parked', 0, ?, ?, 'stopped by user' FROM n`,
    n,
    prefix,
    team,
    at,
    at,
  );
}

const left = (state: DurableObjectState) =>
  state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE stopped_at IS NOT NULL").one().n;

describe("stopped runs (an outcome, kept a day)", () => {
  it("are pruned once a day old, by their index, a batch at a time, the young ones kept and the counts kept exact", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    await runInDurableObject(shardStub(team), (_, state) => {
      applyMigrations(state.storage);
      const now = Date.now();
      seedStopped(state, team, "Ev-old-", 700, now - STOPPED_RETENTION_MS - 1);
      seedStopped(state, team, "Ev-young-", 3, now - 60_000);
      const sql = new MeteredSql(state.storage.sql, state.storage);
      const outbox = new Outbox(sql);
      outbox.walkOn(1_000);
      expect(outbox.countsByStatus()).toEqual({ pending: 0, parked: 0, stopped: 703 });

      // A full batch: more may be left, so the caller asks for an alarm soon, which prunes the rest.
      expect(outbox.stopped.prune(now)).toBe(true);
      expect(left(state)).toBe(203);
      expect(outbox.stopped.prune(now)).toBe(false);
      expect(left(state)).toBe(3);
      expect(outbox.countsByStatus()).toEqual({ pending: 0, parked: 0, stopped: 3 });

      // Not again within the hour; a day after they stopped, the young ones go too.
      clock.advance(STOPPED_RETENTION_MS);
      expect(outbox.stopped.prune(Date.now())).toBe(false);
      expect(left(state)).toBe(0);
      expect(outbox.countsByStatus()).toEqual({ pending: 0, parked: 0, stopped: 0 });
    });
  });
});
