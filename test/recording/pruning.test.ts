import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordSettings } from "../../src/settings";
import { signedEvent } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";

/** One receipt generation: RECEIPT_RETENTION_HOURS as the shards under test read it. */
const GENERATION_MS = recordSettings(env).receiptRetentionMs;

afterEach(() => vi.restoreAllMocks());

/** Sets the clock the Worker and its shards read (they share the tests' isolate). */
function clockAt(ms: number) {
  vi.spyOn(Date, "now").mockReturnValue(ms);
}

describe("receipt retention", () => {
  it("the alarm drops the tables of generations older than the previous one, writing no row per receipt, and keeps the rest", async () => {
    // An hour ahead of real time: alarms the shard re-arms for "now" then lie in the real
    // future, so only runDurableObjectAlarm fires them.
    const now = Date.now() + 3_600_000;
    const generation = Math.floor(now / GENERATION_MS);
    clockAt(now);
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => {
      for (const g of [generation - 3, generation - 2, generation - 1]) {
        state.storage.sql.exec(
          `CREATE TABLE receipts_g${g} (dedupe_key TEXT PRIMARY KEY, kind TEXT NOT NULL, type TEXT NOT NULL, workspace TEXT NOT NULL,
            retry_num INTEGER, retry_reason TEXT, response TEXT, received_at INTEGER NOT NULL) WITHOUT ROWID`,
        );
        const rows = g === generation - 1 ? 1 : 700;
        for (let i = 0; i < rows; i++)
          state.storage.sql.exec(
            `INSERT INTO receipts_g${g} (dedupe_key, kind, type, workspace, received_at) VALUES (?, 'event', 'app_mention', ?, ?)`,
            `g${g}-${i}`,
            team,
            g * GENERATION_MS + i,
          );
      }
    });
    // The shard learns of the tables it did not create when it next loads (as after a restart).
    await evictDurableObject(stub);
    const before = (await stub.stats()).counters.rowsWritten;
    expect((await storedFor(team)).receipts).toBe(1 + 700 + 700 + 1);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await storedFor(team)).receipts).toBe(2); // the previous generation's and this one's
    const tables = await runInDurableObject(stub, (_, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name GLOB 'receipts_*' ORDER BY name")
        .toArray()
        .map((t) => t.name),
    );
    expect(tables).toEqual([`receipts_g${generation - 1}`, `receipts_g${generation}`]);
    // 1,400 receipts pruned; what the alarm wrote is not per receipt (at most a metrics minute).
    expect((await stub.stats()).counters.rowsWritten - before).toBeLessThan(5);
  });

  it("a new shard keeps no table of before the generations: its first ingest leaves only the generation's", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const tables = await runInDurableObject(shardStub(team), (_, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name GLOB 'receipts*' ORDER BY name")
        .toArray()
        .map((t) => t.name),
    );
    expect(tables).toEqual([`receipts_g${Math.floor(Date.now() / GENERATION_MS)}`]);
  });

  it("after the upgrade to generation tables, a retry of an event recorded before it is still a duplicate, and the old table is pruned and dropped", async () => {
    const now = Date.now() + 3_600_000;
    const generation = Math.floor(now / GENERATION_MS);
    clockAt(now);
    const team = newWorkspace();
    const { envelope } = await mentionDelivery(team);
    const stub = shardStub(team);
    // A shard as 0001–0004 left it: the receipt of this very event in the single table (renamed by
    // 0005), plus an expired one; recorded this generation, before the upgrade.
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec(`CREATE TABLE receipts_before_generations (generation INTEGER NOT NULL, dedupe_key TEXT NOT NULL,
        kind TEXT NOT NULL, type TEXT NOT NULL, workspace TEXT NOT NULL, retry_num INTEGER, retry_reason TEXT, response TEXT,
        received_at INTEGER NOT NULL, PRIMARY KEY (generation, dedupe_key)) WITHOUT ROWID`);
      const insert = (g: number, key: string) =>
        state.storage.sql.exec(
          "INSERT INTO receipts_before_generations (generation, dedupe_key, kind, type, workspace, received_at) VALUES (?, ?, 'event', 'app_mention', ?, ?)",
          g,
          key,
          team,
          g * GENERATION_MS,
        );
      insert(generation, String(envelope.event_id));
      insert(generation - 2, "expired");
    });
    await evictDurableObject(stub);

    const retry = await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_timeout" }));
    expect((await deliver(retry)).status).toBe(200);
    const after = await storedFor(team);
    expect(after.receipts).toBe(1 + 2); // nothing new: the retry met the receipt in the old table
    expect(after.outbox.pending).toBe(1); // the other mention's row only

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await storedFor(team)).receipts).toBe(2); // the expired one is gone

    clockAt(now + 2 * GENERATION_MS); // both generations over: the old table empties and goes
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const old = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'receipts_before_generations'").toArray(),
    );
    expect(old).toEqual([]);
  });

  it("a retry whose receipt was filed in the previous generation is still a duplicate", async () => {
    const boundary = (Math.floor(Date.now() / GENERATION_MS) + 1) * GENERATION_MS;
    const team = newWorkspace();
    clockAt(boundary - 1000);
    const { envelope, delivery } = await mentionDelivery(team);
    expect((await deliver(delivery)).status).toBe(200);

    clockAt(boundary + 60_000); // Slack's 1-minute retry lands in the next generation
    const retry = await signedEvent(envelope, signedBy({ retryNum: 2, retryReason: "http_timeout" }));
    expect((await deliver(retry)).status).toBe(200);
    expect((await storedFor(team)).receipts).toBe(1);
  });
});
