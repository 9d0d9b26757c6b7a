import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { minuteOf } from "../../src/platform/minutes";
import { LAYOUT_DELAY_MS } from "../../src/rpc/bucketLayouts";
import type { ShardLoad } from "../../src/rpc/watch";
import { REPORT_SLACK_MS } from "../../src/watch/spreadDecision";
import { controlClock } from "../support/clock";
import {
  adminGet,
  bucketStub,
  bucketsApi,
  newWorkspace,
  receiptsByBucket,
  retriedMention,
  watchStub,
} from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";
import { Shard } from "../worker";

const slack = useFakeSlack();

type WatchEnv = ConstructorParameters<typeof Shard>[1];
type Shown = {
  buckets: number;
  next: { buckets: number; effective_at: string } | null;
  layouts: Array<{ buckets: number; reason: string; busy?: number; effective_at: string }>;
};

const MINUTE = 60_000;
/** The spread on, a shard carrying 100 deliveries a second, spreading at 70% of it, cooling down for 15 minutes. */
const SPREAD_ON = {
  SPREAD_AUTOMATIC: "true",
  SPREAD_SHARD_RATE: "100",
  SPREAD_BUSY_SHARE: "0.7",
  SPREAD_COOL_DOWN_MINUTES: "15",
};

/** A shard's report of the minute just over with `share` of its capacity ingested (100/s × 60 s × share). */
const load = (share: number): ShardLoad => ({
  minute: minuteOf(Date.now()) - 1,
  ingests: Math.round(share * 6_000),
  ackP90Ms: 10,
});

/**
 * The watch as a deployment with `settings` runs it — a watch instance over the watch's own
 * storage, the settings on top of the Worker's env — hearing each shard's report of its minute,
 * then running its alarm (the decision is the alarm's). No timing: the clock is the test's.
 */
function watchHears(reports: Array<[shard: string, share: number]>, settings: Record<string, string> = SPREAD_ON) {
  return runInDurableObject(watchStub(), async (_instance, state) => {
    const watch = new Shard(state, { ...env, ...settings } as unknown as WatchEnv);
    for (const [shard, share] of reports) watch.shardSeen(shard, Date.now(), undefined, load(share));
    await watch.alarm!();
  });
}

const shown = async (team: string) => (await (await bucketsApi(team)).json()) as Shown;
const reasons = async (team: string) => (await shown(team)).layouts.map((layout) => `${layout.buckets} ${layout.reason}`);

const replies = () =>
  slack()
    .callsTo("chat.postMessage")
    .filter((call) => call.outcome === "ok");

describe("the automatic spread (SPREAD_AUTOMATIC)", () => {
  it("a shard reports its minute's load with the minute: the watch's registry holds its busy share (ingests over SPREAD_SHARD_RATE)", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const events = [retriedMention(team), retriedMention(team), retriedMention(team)];
    for (const event of events) expect(await event.send()).toBe(200);
    expect(await events[0]!.redeliver()).toBe(200);
    await vi.waitFor(() => expect(replies()).toHaveLength(3), { timeout: 10_000 });
    const minute = minuteOf(clock.now());
    clock.advance(MINUTE);
    await runDurableObjectAlarm(bucketStub(team, 0));
    // 4 ingests (a duplicate is a turn too) over the default 250 a second for a minute.
    await vi.waitFor(async () =>
      expect((await watchStub().shards(0)).find((shard) => shard.shard === `${team}/0`)).toMatchObject({
        busyShare: 4 / (250 * 60),
        busyMinute: minute,
      }),
    );
  });

  it("rises when a shard reports a busy share over the threshold; a retry of an event recorded before the rise is deduped after it (no second reply)", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const first = retriedMention(team);
    expect(await first.send()).toBe(200);
    await vi.waitFor(() => expect(replies()).toHaveLength(1), { timeout: 10_000 });

    // Below the threshold, nothing; off (the default), nothing whatever the load.
    await watchHears([[`${team}/0`, 0.6]]);
    await watchHears([[`${team}/0`, 0.95]], {});
    expect(await shown(team)).toMatchObject({ buckets: 1, next: null });

    await watchHears([[`${team}/0`, 0.83]]);
    const risen = await shown(team);
    expect(risen).toMatchObject({ buckets: 1, next: { buckets: 2 } });
    expect(risen.layouts.at(-1)).toMatchObject({ buckets: 2, reason: "busy", busy: 0.83 });

    // Past the new layout's taking effect (and every Worker's cached copy): Slack retries the first event.
    clock.advance(LAYOUT_DELAY_MS + 31_000);
    expect(await shown(team)).toMatchObject({ buckets: 2, next: null });
    expect(await first.redeliver()).toBe(200);
    const later = Array.from({ length: 16 }, () => retriedMention(team));
    for (const event of later) expect(await event.send()).toBe(200);
    expect(await first.redeliver()).toBe(200);

    const receipts = await receiptsByBucket(team, 2);
    expect(receipts[0]! + receipts[1]!).toBe(17); // the first event once, where it was recorded
    expect(receipts[1], JSON.stringify(receipts)).toBeGreaterThan(0); // new events spread to bucket 1
    await vi.waitFor(() => expect(replies()).toHaveLength(17), { timeout: 10_000 });
    expect(replies().filter((call) => call.body.thread_ts === first.ts)).toHaveLength(1);

    // The console's overview shows the change: bucket 1 is active, so the workspace is listed with its history.
    await vi.waitFor(async () => {
      const overview = (await (await adminGet("/admin/api/overview?minutes=60")).json()) as { buckets: unknown[] };
      expect(overview.buckets).toContainEqual({
        workspace: team,
        changes: [{ buckets: 2, reason: "busy", busy: 0.83, effectiveAt: Date.parse(risen.next!.effective_at) }],
      });
    });
  });

  it("not twice within the cool-down; falls after it once every shard is quiet, not before", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    await watchHears([[`${team}/0`, 0.9]]);
    const effectiveAt = Date.parse((await shown(team)).next!.effective_at);
    // Busier still, at once and ten minutes into the new layout: nothing more.
    await watchHears([[`${team}/0`, 0.95]]);
    clock.advance(effectiveAt - clock.now() + 10 * MINUTE);
    await watchHears([
      [`${team}/0`, 0.95],
      [`${team}/1`, 0.9],
    ]);
    expect(await reasons(team)).toEqual(["1 manual", "2 busy"]);

    // The cool-down is over but a shard was warm five minutes ago: no fall yet (and its figures are stale: no rise).
    clock.advance(5 * MINUTE + 1_000);
    await watchHears([]);
    expect(await reasons(team)).toEqual(["1 manual", "2 busy"]);

    // Quiet for the whole cool-down — shard 0, silent since its warm report, for REPORT_SLACK_MS more: back to one.
    clock.advance(10 * MINUTE + REPORT_SLACK_MS);
    await watchHears([[`${team}/1`, 0.1]]);
    const fallen = await shown(team);
    expect(fallen.next).toMatchObject({ buckets: 1 });
    expect(fallen.layouts.at(-1)).toMatchObject({ buckets: 1, reason: "quiet" });
  });

  it("a manual PUT is respected: the spread rises from its count and never falls below it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    expect((await bucketsApi(team, { method: "PUT", body: '{"buckets": 4}' })).status).toBe(200);
    clock.advance(LAYOUT_DELAY_MS + 16 * MINUTE);
    await watchHears([[`${team}/3`, 0.8]]);
    expect(await reasons(team)).toEqual(["1 manual", "4 manual", "8 busy"]);

    for (let i = 0; i < 3; i++) {
      clock.advance(LAYOUT_DELAY_MS + 16 * MINUTE);
      await watchHears([[`${team}/5`, 0.05]]);
    }
    expect(await reasons(team)).toEqual(["1 manual", "4 manual", "8 busy", "4 quiet"]);
  });
});
