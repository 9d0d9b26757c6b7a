import type { StreamPlan } from "./scenarios/streams";

/** How much a bench run measures: the full run (~5 min) or `--quick` (~1.5 min, for a smoke check). */
export interface BenchPlan {
  /** Fixed offered rates for the side-by-side comparison, each run for `fixedMs`. */
  fixedRates: number[];
  fixedMs: number;
  /** The fixed rate at which the ingest-only coordinator runs, to split the CPU per event. */
  breakdownRate: number;
  /** Rates the step search for the highest sustained rate may try, each for `stepMs`. */
  ladder: number[];
  stepMs: number;
  /** Subjects whose highest sustained rate is searched. */
  searchSubjects: Array<"coordinator" | "floor" | "slack-edge" | "slack-edge-same-work">;
  /** Workspace counts (distinct team_ids, so distinct shards) for the scaling runs at `scalingRate`. */
  scalingWorkspaces: number[];
  scalingRate: number;
  /** Whether the scaling runs also search their highest sustained rate. */
  scalingSearch: boolean;
  cost: { rate: number; durationMs: number; receiptRetentionHours: number; maxWaitMs: number };
  /**
   * OAuth mode against single-workspace mode: same rate and installed workspaces, `rounds`
   * interleaved runs each; at `rate` (judged) and at `unsaturatedRate`, one this machine sustains.
   */
  oauth: { rate: number; unsaturatedRate: number; durationMs: number; rounds: number; workspaces: number };
  /**
   * Relay mode beside the embedded example: same rate and workspaces, `rounds` interleaved runs
   * each; at `rate` (the issue's) and at `unsaturatedRate`, one this machine sustains.
   */
  relay: { rate: number; unsaturatedRate: number; durationMs: number; rounds: number; workspaces: number };
  /** Streamed replies: first append to Slack and rows per reply at a rate, then concurrent streams in one workspace. */
  streams: StreamPlan;
  /** The whole run stops (exit 1) past this. */
  deadlineMs: number;
}

export const FULL_PLAN: BenchPlan = {
  fixedRates: [100, 300, 1000],
  fixedMs: 10_000,
  breakdownRate: 300,
  ladder: [100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000, 4000],
  stepMs: 5_000,
  searchSubjects: ["coordinator", "floor", "slack-edge", "slack-edge-same-work"],
  scalingWorkspaces: [1, 4, 16],
  scalingRate: 300,
  scalingSearch: true,
  // 18 s retention: the first alarm after the load (at the immediate attempts' lease expiry, ~60 s) prunes everything.
  cost: { rate: 200, durationMs: 10_000, receiptRetentionHours: 0.005, maxWaitMs: 180_000 },
  oauth: { rate: 300, unsaturatedRate: 150, durationMs: 10_000, rounds: 3, workspaces: 16 },
  relay: { rate: 300, unsaturatedRate: 150, durationMs: 10_000, rounds: 3, workspaces: 16 },
  // 100 streams a minute over 10 workspaces: 10 starts a minute each, within Tier 2 (20).
  streams: { perMinute: 100, durationMs: 60_000, workspaces: 10, n: 300, pauseMs: 10, concurrent: 20, maxWaitMs: 150_000 },
  deadlineMs: 30 * 60_000,
};

export const QUICK_PLAN: BenchPlan = {
  fixedRates: [100, 300, 1000],
  fixedMs: 3_000,
  breakdownRate: 300,
  ladder: [100, 200, 300, 500, 1000, 1500, 2000, 3000],
  stepMs: 3_000,
  searchSubjects: ["coordinator"],
  scalingWorkspaces: [1, 4, 16],
  scalingRate: 300,
  scalingSearch: false,
  cost: { rate: 100, durationMs: 5_000, receiptRetentionHours: 0.005, maxWaitMs: 150_000 },
  oauth: { rate: 300, unsaturatedRate: 150, durationMs: 3_000, rounds: 2, workspaces: 16 },
  relay: { rate: 300, unsaturatedRate: 150, durationMs: 3_000, rounds: 2, workspaces: 16 },
  streams: { perMinute: 100, durationMs: 30_000, workspaces: 10, n: 300, pauseMs: 10, concurrent: 20, maxWaitMs: 150_000 },
  deadlineMs: 13 * 60_000,
};

export function workspaces(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `TBENCH${i}`);
}
