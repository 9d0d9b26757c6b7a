import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordSettings } from "../src/config";
import { deliver, mentionDelivery, newWorkspace, shardStub, signedBy, storedFor } from "./support/coordinator";
import { signedEvent } from "./support/slackSimulator";

/** One receipt generation: RECEIPT_RETENTION_HOURS as the shards under test read it. */
const GENERATION_MS = recordSettings(env).receiptRetentionMs;

afterEach(() => vi.restoreAllMocks());

/** Sets the clock the Worker and its shards read (they share the tests' isolate). */
function clockAt(ms: number) {
  vi.spyOn(Date, "now").mockReturnValue(ms);
}

describe("receipt retention", () => {
  it("the alarm deletes generations older than the previous one, in bounded batches, and keeps the rest", async () => {
    // An hour ahead of real time: alarms the shard re-arms for "now" then lie in the real
    // future, so only runDurableObjectAlarm fires them.
    const now = Date.now() + 3_600_000;
    const generation = Math.floor(now / GENERATION_MS);
    clockAt(now);
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    await runInDurableObject(stub, (_, state) => {
      const insert = (g: number, key: string, at: number) =>
        state.storage.sql.exec(
          "INSERT INTO receipts (generation, dedupe_key, kind, type, workspace, received_at) VALUES (?, ?, 'event', 'app_mention', ?, ?)",
          g,
          key,
          team,
          at,
        );
      for (let i = 0; i < 700; i++) insert(generation - 2, `old-${i}`, (generation - 2) * GENERATION_MS + i);
      insert(generation - 1, "previous-generation", (generation - 1) * GENERATION_MS);
    });
    const count = () =>
      runInDurableObject(stub, (_, state) =>
        state.storage.sql
          .exec<{ old: number; kept: number }>(
            "SELECT sum(dedupe_key LIKE 'old-%') AS old, sum(dedupe_key NOT LIKE 'old-%') AS kept FROM receipts",
          )
          .one(),
      );

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await count()).old).toBe(200); // 700 expired, one batch of 500 per alarm
    expect(await runDurableObjectAlarm(stub)).toBe(true); // re-armed itself for the remainder
    expect(await count()).toEqual({ old: 0, kept: 2 });
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
