import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { OutboxFiling } from "../../src/recording/outboxFiling";
import { mentionIn } from "../support/inboundOf";
import { outboxOf, recordPlanned } from "../support/shardIn";
import { testApp } from "../support/testApp";
import { LEASE_MS } from "../support/testBindings";

// The outbox filed by generation (src/recording/outboxFiling.ts): done rows cost no row to prune,
// whatever their number; a row in its attempt while its table is filed settles in the new one.

afterEach(() => vi.restoreAllMocks());

const RETENTION = 86_400_000;

/** A shard with `done` delivered rows and one row leased to "running"; the rows written by its filing and by the drop a generation later. */
async function filedWith(done: number) {
  const stub = env.SHARD.get(env.SHARD.idFromName(`filing-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_, state) => {
    const outbox = outboxOf(state);
    const sql = new MeteredSql(state.storage.sql, state.storage);
    const filing = new OutboxFiling(sql, RETENTION);
    const start = Date.now();
    filing.mark(start);
    const lease = (token: string) => ({ token, expiresAt: Date.now() + LEASE_MS });
    for (let i = 0; i < done; i++) {
      const [row] = recordPlanned(
        outbox,
        testApp,
        mentionIn("T0FILING", "C0FILING", `1700000000.${i}`, `EvDone${i}`),
        lease(`t${i}`),
      );
      outbox.complete(row!.idempotency_key, `t${i}`);
    }
    const [running] = recordPlanned(
      outbox,
      testApp,
      mentionIn("T0FILING", "C0FILING", "1700000001.000", "EvRunning"),
      lease("running"),
    );
    const key = running!.idempotency_key;
    const generation = Math.floor(start / RETENTION);
    const written = (at: number) => {
      vi.spyOn(Date, "now").mockReturnValue(at);
      const before = sql.rowsWritten;
      filing.file(at);
      return sql.rowsWritten - before;
    };
    const filingCost = written((generation + 1) * RETENTION + 1_000);
    // The attempt that held its row while it was filed still holds it, in the new table, and completes it there.
    const completed = outbox.complete(key, "running");
    const live = state.storage.sql.exec("SELECT done_at FROM outbox").toArray();
    const dropCost = written((generation + 2) * RETENTION + 1_000);
    const tables = state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'outbox*' ORDER BY name")
      .toArray()
      .map((table) => table.name);
    return { filingCost, dropCost, completed, live: live.length, liveDone: live[0]?.done_at !== null, tables, generation };
  });
}

describe("the outbox filed by generation", () => {
  it("filing and dropping cost the same rows with 2 done rows as with 40: none per delivered event", async () => {
    const few = await filedWith(2);
    const many = await filedWith(40);
    expect(many.filingCost).toBe(few.filingCost);
    expect(many.dropCost).toBe(few.dropCost);
    expect(few).toMatchObject({ completed: true, live: 1, liveDone: true });
    // Filed once at the first generation's end, then again a generation later (the carried row, done by then, stays behind).
    expect(few.tables).toEqual(["outbox", `outbox_g${few.generation + 1}`]);
  });
});
