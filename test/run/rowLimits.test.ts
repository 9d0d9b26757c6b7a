import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { AsyncTransaction, SqliteTooBig } from "../../src/platform/sql/sqlLimits";
import { signedForm, slashCommandFields } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { bigStepRuns } from "../support/testApp";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";

describe("Cloudflare's limits on the shard's SQL, refused locally as in production", () => {
  it("a bound value over 2 MB is refused before it runs (local workerd would store it), and nothing is written", async () => {
    const outcome = await runInDurableObject(shardStub(newWorkspace()), (_, state) => {
      applyMigrations(state.storage);
      const sql = new MeteredSql(state.storage.sql, state.storage);
      const write = (text: string) =>
        sql.all(
          "INSERT INTO assistant_threads (team, channel, thread_ts, context, saved_at) VALUES ('T', 'C', ?, ?, 0)",
          String(text.length),
          text,
        );
      let refused: unknown;
      try {
        write("é".repeat(1_000_001)); // 2,000,002 bytes of UTF-8 in 1,000,001 characters
      } catch (error) {
        refused = error;
      }
      write("é".repeat(1_000_000)); // 2,000,000 bytes: the limit itself is allowed
      // What the runtime itself accepts, past the guard: the local limit is far above Cloudflare's.
      state.storage.sql.exec(
        "INSERT INTO assistant_threads (team, channel, thread_ts, context, saved_at) VALUES ('T', 'C', 'raw', ?, 0)",
        "x".repeat(2_500_000),
      );
      const stored = state.storage.sql
        .exec<{ thread_ts: string }>("SELECT thread_ts FROM assistant_threads ORDER BY thread_ts")
        .toArray();
      return {
        refused: refused instanceof SqliteTooBig ? refused.message : String(refused),
        stored: stored.map((r) => r.thread_ts),
      };
    });
    expect(outcome.refused).toMatch(/^string or blob too big: SQLITE_TOOBIG \(a bound value of 2,000,002 bytes/);
    expect(outcome.stored).toEqual(["1000000", "raw"]);
  });

  it("a transaction whose callback returns a promise throws, and its writes are rolled back", async () => {
    const outcome = await runInDurableObject(shardStub(newWorkspace()), async (_, state) => {
      applyMigrations(state.storage);
      const sql = new MeteredSql(state.storage.sql, state.storage);
      let refused: unknown;
      try {
        sql.transaction(async () => {
          sql.all(
            "INSERT INTO assistant_threads (team, channel, thread_ts, context, saved_at) VALUES ('T', 'C', 'before', '{}', 0)",
          );
          await Promise.resolve();
        });
      } catch (error) {
        refused = error;
      }
      const rows = state.storage.sql.exec("SELECT 1 FROM assistant_threads").toArray().length;
      return { refused: refused instanceof AsyncTransaction, rows };
    });
    expect(outcome).toEqual({ refused: true, rows: 0 });
  });
});

describe("a step whose result would take its run's row past 2 MB", () => {
  const command = (team: string, name: string) => signedForm(slashCommandFields(name, "", { team_id: team }), signedBy());

  it.each([
    { name: "/hugestep", step: "model-answer", bytes: "2,500,002" },
    { name: "/growstep", step: "second-half", bytes: "1,200,002" },
  ])(
    "$name is parked after its one attempt, naming the limit and the step, and the step never runs again",
    async ({ name, step, bytes }) => {
      const clock = controlClock();
      const team = newWorkspace();
      const runsBefore = bigStepRuns.count;
      expect((await deliver(await command(team, name), "/slack/commands")).status).toBe(200);
      await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);

      const [row] = await outboxRows(shardStub(team));
      expect(row).toMatchObject({ status: "parked", attempts: 1 });
      expect(row!.last_error).toContain(
        `handler "command:${name}": step "${step}" returned ${bytes} bytes of JSON, which would take its run's row past Cloudflare's limit of 2,000,000 bytes for a row (SQLITE_TOOBIG)`,
      );
      expect(bigStepRuns.count - runsBefore).toBe(1);
    },
  );
});
