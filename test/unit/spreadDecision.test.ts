import { describe, expect, it } from "vitest";
import { type BucketLayout, LAYOUT_DELAY_MS } from "../../src/rpc/bucketLayouts";
import { spreadSettings } from "../../src/settings";
import {
  busyShare,
  decideSpread,
  floorOf,
  nextCheckAt,
  REPORT_SLACK_MS,
  type ShardFigures,
  type SpreadInput,
} from "../../src/watch/spreadDecision";

const MINUTE = 60_000;
const settings = { shardRate: 100, busyShare: 0.7, maxBuckets: 8, coolDownMs: 15 * MINUTE, ackBudgetMs: 2000 };
/** A clock far from 0: layouts are hours old unless a test says otherwise. */
const T = 1_000 * 60 * MINUTE;

const layout = (buckets: number, effectiveAt: number, reason: BucketLayout["reason"], busy?: number): BucketLayout => ({
  buckets,
  effectiveAt,
  mixed: effectiveAt > 0,
  routing: effectiveAt > 0 ? "conversation" : "message",
  reason,
  ...(busy === undefined ? {} : { busy }),
});

/** A shard that reported `share` for the minute that ended just before `now`, warm if at least half the trigger. */
const reported = (share: number, now: number): ShardFigures => ({
  busyShare: share,
  busyMinute: Math.floor(now / MINUTE) - 1,
  warmAt: share >= settings.busyShare / 2 ? now : null,
});

const input = (over: Partial<SpreadInput>): SpreadInput => ({
  layouts: [],
  shardBuckets: 1,
  shards: [],
  settings,
  now: T,
  ...over,
});

describe("the automatic spread's decision (watch/spreadDecision.ts)", () => {
  it("a shard's busy share is its ingests per second over SPREAD_SHARD_RATE, or its ack p90 over the ack budget with enough ingests", () => {
    expect(busyShare({ minute: 1, ingests: 4_200, ackP90Ms: 25 }, settings)).toBeCloseTo(0.7);
    // Acks that queue say the shard is busy whatever the rate says…
    expect(busyShare({ minute: 1, ingests: 600, ackP90Ms: 1_000 }, settings)).toBeCloseTo(0.5);
    // …but not a few slow acks of a quiet minute (a cold start).
    expect(busyShare({ minute: 1, ingests: 3, ackP90Ms: 2_500 }, settings)).toBeCloseTo(0.0005);
  });

  it("rises — doubling — when a shard reports a busy share over the threshold; not below it", () => {
    expect(decideSpread(input({ shards: [reported(0.69, T)] }))).toBeNull();
    expect(decideSpread(input({ shards: [reported(0.1, T), reported(0.83, T)] }))).toEqual({
      buckets: 2,
      reason: "busy",
      busy: 0.83,
      latestAt: 0,
    });
    const four = [layout(1, 0, "manual"), layout(4, T - 20 * MINUTE, "busy")];
    expect(decideSpread(input({ layouts: four, shards: [reported(0.9, T)] }))).toMatchObject({ buckets: 8, reason: "busy" });
  });

  it("not twice within the cool-down: nothing until the latest layout has been in force for SPREAD_COOL_DOWN_MINUTES", () => {
    const risen = [layout(1, 0, "manual"), layout(2, T + LAYOUT_DELAY_MS, "busy", 0.83)];
    for (const later of [0, LAYOUT_DELAY_MS + MINUTE, LAYOUT_DELAY_MS + 14 * MINUTE]) {
      const now = T + later;
      expect(decideSpread(input({ layouts: risen, shards: [reported(0.95, now)], now }))).toBeNull();
    }
    const now = T + LAYOUT_DELAY_MS + 15 * MINUTE;
    expect(decideSpread(input({ layouts: risen, shards: [reported(0.95, now)], now }))).toMatchObject({ buckets: 4 });
  });

  it("figures from before the latest layout took effect, or stale ones, raise nothing", () => {
    const risen = [layout(1, 0, "manual"), layout(2, T - 20 * MINUTE, "busy")];
    const before: ShardFigures = { busyShare: 0.95, busyMinute: Math.floor((T - 21 * MINUTE) / MINUTE), warmAt: T - 21 * MINUTE };
    expect(decideSpread(input({ layouts: risen, shards: [{ ...before, warmAt: T }] }))).toBeNull();
    const stale: ShardFigures = { busyShare: 0.95, busyMinute: Math.floor(T / MINUTE) - 5, warmAt: T };
    expect(decideSpread(input({ layouts: risen, shards: [stale] }))).toBeNull();
  });

  it("falls — halving — once every shard has been quiet (below half the threshold) for the cool-down", () => {
    const spread = [layout(1, 0, "manual"), layout(2, T - 40 * MINUTE, "busy"), layout(4, T - 20 * MINUTE, "busy")];
    // One shard warm (0.4 ≥ 0.35) within the cool-down: stays at 4.
    const warm: ShardFigures = { busyShare: 0.4, busyMinute: Math.floor(T / MINUTE) - 1, warmAt: T - 10 * MINUTE };
    expect(decideSpread(input({ layouts: spread, shards: [warm, reported(0.1, T)] }))).toBeNull();
    // Every shard quiet since the cool-down: to 2, and halving puts each below the trigger (2 × 0.3 < 0.7).
    const cooled = { ...warm, busyShare: 0.3, warmAt: T - 16 * MINUTE };
    expect(decideSpread(input({ layouts: spread, shards: [cooled, reported(0.1, T)] }))).toEqual({
      buckets: 2,
      reason: "quiet",
      busy: 0.3,
      latestAt: T - 20 * MINUTE,
    });
    // No shard reported at all (no traffic): quiet too.
    expect(decideSpread(input({ layouts: spread }))).toMatchObject({ buckets: 2, reason: "quiet", busy: 0 });
  });

  it("a shard silent since a warm report is not quiet until REPORT_SLACK_MS past the cool-down: its next report may be late", () => {
    const spread = [layout(1, 0, "manual"), layout(2, T - 40 * MINUTE, "busy")];
    // Its latest report (0.9, warm) came 15 minutes and a second ago — the cool-down — and none since.
    const silent: ShardFigures = {
      busyShare: 0.9,
      busyMinute: Math.floor((T - 16 * MINUTE) / MINUTE),
      warmAt: T - 15 * MINUTE - 1000,
    };
    expect(decideSpread(input({ layouts: spread, shards: [silent] }))).toBeNull();
    // Silent for the slack too: traffic stopped, or the shard cannot report at all — quiet.
    const later = T + REPORT_SLACK_MS;
    expect(decideSpread(input({ layouts: spread, shards: [silent], now: later }))).toMatchObject({ buckets: 1, reason: "quiet" });
    // A quiet report after the warm one needs no slack: the cool-down alone.
    expect(decideSpread(input({ layouts: spread, shards: [{ ...silent, busyShare: 0.1 }] }))).toMatchObject({ buckets: 1 });
  });

  it("a manual count is respected: the spread never falls below the latest PUT's count, and rises from it", () => {
    const manual = [layout(1, 0, "manual"), layout(2, T - 60 * MINUTE, "busy"), layout(4, T - 40 * MINUTE, "manual")];
    expect(floorOf({ layouts: manual, shardBuckets: 1 })).toBe(4);
    expect(decideSpread(input({ layouts: manual }))).toBeNull();
    expect(decideSpread(input({ layouts: manual, shards: [reported(0.8, T)] }))).toMatchObject({ buckets: 8, reason: "busy" });
    const above = [...manual, layout(8, T - 20 * MINUTE, "busy")];
    expect(decideSpread(input({ layouts: above }))).toMatchObject({ buckets: 4, reason: "quiet" });
    // Without layouts, SHARD_BUCKETS is the floor; a PUT above SPREAD_MAX_BUCKETS is never raised further.
    expect(decideSpread(input({ shardBuckets: 2 }))).toBeNull();
    const big = [layout(1, 0, "manual"), layout(16, T - 60 * MINUTE, "manual")];
    expect(decideSpread(input({ layouts: big, shards: [reported(0.99, T)] }))).toBeNull();
  });

  it("books the next look: a spread workspace when a fall could be due, a busy one held by the cool-down at its end, else none", () => {
    const risen = [layout(1, 0, "manual"), layout(2, T + LAYOUT_DELAY_MS, "busy")];
    expect(nextCheckAt(input({ layouts: risen, shards: [reported(0.9, T)] }))).toBe(T + LAYOUT_DELAY_MS + 15 * MINUTE);
    const long = [layout(1, 0, "manual"), layout(2, T - 60 * MINUTE, "busy")];
    expect(nextCheckAt(input({ layouts: long, shards: [reported(0.5, T)] }))).toBe(T + 15 * MINUTE);
    expect(nextCheckAt(input({ shards: [reported(0.2, T)] }))).toBeNull();
    const held = [layout(1, 0, "manual"), layout(2, T - 5 * MINUTE, "manual")];
    expect(nextCheckAt(input({ layouts: held, shards: [reported(0.9, T)] }))).toBe(T + 10 * MINUTE);
  });

  it("SPREAD_* settings: off by default; an invalid value falls back to its default, named, and never throws", () => {
    expect(spreadSettings({})).toMatchObject({
      automatic: false,
      shardRate: 250,
      busyShare: 0.7,
      maxBuckets: 16,
      coolDownMs: 15 * MINUTE,
    });
    const bad = spreadSettings({ SPREAD_AUTOMATIC: "yes", SPREAD_BUSY_SHARE: "1.5", SPREAD_COOL_DOWN_MINUTES: "0" });
    expect(bad).toMatchObject({ automatic: false, busyShare: 0.7, coolDownMs: 15 * MINUTE });
    expect(bad.problems.map((problem) => problem.setting)).toEqual([
      "SPREAD_AUTOMATIC",
      "SPREAD_BUSY_SHARE",
      "SPREAD_COOL_DOWN_MINUTES",
    ]);
  });
});
