import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deliver, mentionDelivery, newWorkspace, shardStub } from "./support/coordinator";

const HOUR = 3_600_000;

afterEach(() => vi.restoreAllMocks());

describe("receipt pruning", () => {
  it("the alarm deletes receipts older than the 24 h retention, in bounded batches, and keeps the rest", async () => {
    const team = newWorkspace();
    expect((await deliver((await mentionDelivery(team)).delivery)).status).toBe(200);
    const stub = shardStub(team);
    const now = Date.now();
    await runInDurableObject(stub, (_, state) => {
      for (let i = 0; i < 700; i++) {
        state.storage.sql.exec(
          "INSERT INTO receipts (dedupe_key, kind, type, workspace, received_at) VALUES (?, 'event', 'app_mention', ?, ?)",
          `old-${i}`, team, now - 24 * HOUR - i,
        );
      }
      state.storage.sql.exec(
        "INSERT INTO receipts (dedupe_key, kind, type, workspace, received_at) VALUES ('recent', 'event', 'app_mention', ?, ?)",
        team, now - 22 * HOUR,
      );
    });
    const count = () => runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec<{ old: number; kept: number }>(
        "SELECT sum(dedupe_key LIKE 'old-%') AS old, sum(dedupe_key NOT LIKE 'old-%') AS kept FROM receipts WHERE kind != 'fact'").one());

    // Run the shard's clock an hour ahead (tests share its isolate): alarms it re-arms for
    // "now" then lie in the real future, so only runDurableObjectAlarm fires them.
    vi.spyOn(Date, "now").mockReturnValue(now + HOUR);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const afterFirst = await count();
    expect(afterFirst.old).toBe(200); // 700 expired, one batch of 500 per alarm
    expect(await runDurableObjectAlarm(stub)).toBe(true); // re-armed itself for the remainder
    expect(await count()).toEqual({ old: 0, kept: 2 });
  });
});
