import type { Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { type RunResult, runAtRate } from "./runAtRate";

export interface RunOptions {
  rate: number;
  durationMs: number;
  rounds: number;
  workspaces: readonly string[];
}

/**
 * Two subjects under the same load, `rounds` runs each, interleaved — who goes first alternates,
 * so a drift in the machine's load favours neither.
 */
export async function interleavedRuns(
  context: BenchContext,
  a: Subject,
  b: Subject,
  options: RunOptions,
): Promise<{ a: RunResult[]; b: RunResult[] }> {
  const runs = { a: [] as RunResult[], b: [] as RunResult[] };
  const run = (subject: Subject) => runAtRate(context, subject, options);
  for (let round = 0; round < options.rounds; round++) {
    if (round % 2 === 0) {
      runs.a.push(await run(a));
      runs.b.push(await run(b));
    } else {
      runs.b.push(await run(b));
      runs.a.push(await run(a));
    }
  }
  return runs;
}

export const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((x, y) => x - y);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  const middle = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round(middle * 100) / 100;
};

/** The median over runs of one number each run gives (NaN/null runs left out). */
export const medianOf = (runs: RunResult[], pick: (run: RunResult) => number | null | undefined) =>
  median(runs.map((run) => pick(run) ?? Number.NaN));

export const ratioOf = (a: number | null, b: number | null) =>
  a !== null && b !== null && b > 0 ? Math.round((a / b) * 100) / 100 : null;
