import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { storageAlert } from "../../src/watch/alertTexts";
import { controlClock } from "../support/clock";
import { newWorkspace, watchStub } from "../support/coordinator";
import { Shard } from "../worker";

type WatchEnv = ConstructorParameters<typeof Shard>[1];

/**
 * Shards report their size to the watch at most once a minute (test/operations/metrics.test.ts);
 * here the watch hears such reports under STORAGE_ALERT_BYTES set low — a watch instance over the
 * watch's own storage with the setting on top of the Worker's env, as a deployment with it runs.
 */
function reportSizes(reports: Array<[shard: string, bytes: number]>, settings: Record<string, string>): Promise<void> {
  return runInDurableObject(watchStub(), (_instance, state) => {
    const watch = new Shard(state, { ...env, ...settings } as unknown as WatchEnv);
    for (const [shard, bytes] of reports) watch.shardSeen(shard, Date.now(), bytes);
  });
}

/** The storage alerts logged (no ALERT_WEBHOOK_URL in this project: alerts are logged, not sent). */
function storageAlertsIn(warnings: { mock: { calls: unknown[][] } }): string[] {
  return warnings.mock.calls
    .map(([line]) => JSON.parse(String(line)) as { msg: string; text?: string })
    .filter((line) => line.msg === "alert" && line.text?.startsWith(":floppy_disk:"))
    .map((line) => line.text!);
}

describe("storage alerts (STORAGE_ALERT_BYTES)", () => {
  it("a shard that reaches the setting is alerted once with its size, not again within a day, and again after one", async () => {
    const clock = controlClock();
    const [first, second] = [`${newWorkspace()}/0`, `${newWorkspace()}/0`];
    const warnings = vi.spyOn(console, "warn");
    const low = { STORAGE_ALERT_BYTES: "1000000" };

    await reportSizes(
      [
        [first, 999_999],
        [first, 1_500_000],
        [first, 1_600_000],
        [second, 2_000_000],
      ],
      low,
    );
    expect(storageAlertsIn(warnings)).toEqual([
      storageAlert(first, 1_500_000, 1_000_000),
      storageAlert(second, 2_000_000, 1_000_000),
    ]);
    const [text] = storageAlertsIn(warnings);
    expect(text).toContain(`Shard ${first} stores 1.5 MB (STORAGE_ALERT_BYTES: 1 MB)`);
    expect(text).toContain(`GET /admin/shards/${first.replace("/0", "")}/0`);

    // Another watch instance (a deploy, an eviction) remembers: nothing more within the day.
    clock.advance(23 * 3_600_000);
    await reportSizes([[first, 1_700_000]], low);
    expect(storageAlertsIn(warnings)).toHaveLength(2);

    // A day after the alert, a shard still past the setting is alerted again.
    clock.advance(3_600_000);
    await reportSizes([[first, 1_800_000]], low);
    expect(storageAlertsIn(warnings).slice(2)).toEqual([storageAlert(first, 1_800_000, 1_000_000)]);
  });

  it("STORAGE_ALERT_BYTES=1 alerts any shard that reports a size; a shard of an earlier version (no size) is never alerted", async () => {
    controlClock();
    const [sized, unsized] = [`${newWorkspace()}/0`, `${newWorkspace()}/0`];
    const warnings = vi.spyOn(console, "warn");
    await runInDurableObject(watchStub(), (_instance, state) => {
      const watch = new Shard(state, { ...env, STORAGE_ALERT_BYTES: "1" } as unknown as WatchEnv);
      watch.shardSeen(sized, Date.now(), 16_384);
      watch.shardSeen(unsized, Date.now());
    });
    expect(storageAlertsIn(warnings)).toEqual([storageAlert(sized, 16_384, 1)]);
    expect(storageAlertsIn(warnings)[0]).toContain("stores 16 kB (STORAGE_ALERT_BYTES: 1 B)");
  });
});
