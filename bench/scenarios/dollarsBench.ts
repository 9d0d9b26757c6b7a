import { workspaces } from "../plan";
import type { MeasuredUsage } from "../report/dollars";
import type { Subject, SubjectName } from "../subjects";
import type { BenchContext } from "./benchContext";
import type { RunResult } from "./runAtRate";
import { type CostedRun, plainUsage, runWithUsage } from "./usage";

export interface BenchDollars {
  rate: number;
  subjects: Array<{ label: string; usage: MeasuredUsage | null; statements: CostedRun["statements"] }>;
  runs: { coordinator: RunResult; seed: RunResult };
}

/**
 * `npm run bench`'s dollars per million events: the metered coordinator and the seeds' D1 design
 * each run once at `rate` with their counts read around the run; slack-edge (same work and
 * plain) and the floor are priced from their fixed-rate runs at the same rate.
 */
export async function measureDollars(
  context: BenchContext,
  subjects: { coordinator: Subject; seed: Subject },
  options: { rate: number; durationMs: number; fixed: RunResult[] },
): Promise<BenchDollars> {
  const run = { rate: options.rate, durationMs: options.durationMs, workspaces: workspaces(1) };
  const coordinator = await runWithUsage(context, subjects.coordinator, run);
  const seed = await runWithUsage(context, subjects.seed, run);
  const fixedAt = (name: SubjectName) => options.fixed.find((r) => r.subject === name && r.rate === options.rate);
  return {
    rate: options.rate,
    subjects: [
      { label: "coordinator", usage: coordinator.usage, statements: coordinator.statements },
      { label: "slack-edge, same work", usage: plainUsage(fixedAt("slack-edge-same-work")), statements: [] },
      { label: "seeds' D1 design", usage: seed.usage, statements: seed.statements },
      { label: "slack-edge", usage: plainUsage(fixedAt("slack-edge")), statements: [] },
      { label: "floor", usage: plainUsage(fixedAt("floor")), statements: [] },
    ],
    runs: { coordinator: coordinator.run, seed: seed.run },
  };
}
