import { BACKLOG_WORKSPACE, type BacklogSize, rowsPerEventOf } from "./backlog";
import type { BacklogPlan } from "./backlogPlan";
import type { BacklogStats } from "./backlogShard";
import type { BenchContext } from "./benchContext";
import { medianOf } from "./interleaved";
import { type RunResult, runAtRate } from "./runAtRate";

/** One size's steady load: its rounds, their medians, and the rows its shard wrote per event over all of them. */
export interface SteadyRounds {
  rounds: RunResult[];
  ack: { p50: number | null; p99: number | null; max: number | null };
  replyP99: number | null;
  cpuMsPerEvent: number | null;
  non2xx: number;
  rowsPerEvent: number | null;
  counters: { accepted: number; rowsWritten: number; alarmsSet: number };
}

const countersSince = (before: BacklogStats, after: BacklogStats) => ({
  accepted: after.counters.accepted - before.counters.accepted,
  rowsWritten: after.counters.rowsWritten - before.counters.rowsWritten,
  alarmsSet: after.counters.alarmsSet - before.counters.alarmsSet,
});

/**
 * The same load on every size, once each walk is complete, in `steadyRounds` rounds interleaved
 * (smallest first, then largest first, …): on a machine shared with other work a drift in its load
 * then favours no size, and the medians are compared.
 */
export async function measureSteady(context: BenchContext, sizes: readonly BacklogSize[], plan: BacklogPlan): Promise<void> {
  const before = await Promise.all(sizes.map((size) => size.shard.stats()));
  const rounds = sizes.map((): RunResult[] => []);
  for (let round = 0; round < plan.steadyRounds; round++) {
    const order = sizes.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const { subject } = sizes[i]!;
      rounds[i]!.push(
        await runAtRate(context, subject, { rate: plan.rate, durationMs: plan.steadyMs, workspaces: [BACKLOG_WORKSPACE] }),
      );
    }
  }
  for (const [i, size] of sizes.entries()) {
    const runs = rounds[i]!;
    const counters = countersSince(before[i]!, await size.shard.stats());
    size.run.steady = {
      rounds: runs,
      ack: {
        p50: medianOf(runs, (r) => r.ack.p50),
        p99: medianOf(runs, (r) => r.ack.p99),
        max: medianOf(runs, (r) => r.ack.max),
      },
      replyP99: medianOf(runs, (r) => r.delivery?.p99),
      cpuMsPerEvent: medianOf(runs, (r) => r.runtimeCpuMsPerEvent),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      rowsPerEvent: rowsPerEventOf(counters),
      counters,
    };
  }
}
