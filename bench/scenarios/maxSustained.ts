import type { Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { type RunResult, runAtRate } from "./runAtRate";

export interface MaxSustained {
  /** Highest offered rate sustained by the rule of sustained.ts (SUSTAINED_RULE); null when even the lowest step failed. */
  rate: number | null;
  /** True when the top of the ladder passed: the real ceiling is higher (often the generator's). */
  capped: boolean;
  steps: RunResult[];
}

/**
 * A short step search on a ladder of offered rates: from `startRate` upwards while each step
 * is sustained, or downwards until one is. Each step is a full open-loop run of `stepMs`.
 */
export async function findMaxSustained(
  context: BenchContext,
  subject: Subject,
  options: {
    ladder: readonly number[];
    startRate: number;
    stepMs: number;
    workspaces: readonly string[];
  },
): Promise<MaxSustained> {
  const ladder = [...options.ladder].sort((a, b) => a - b);
  const above = ladder.findIndex((rate) => rate >= options.startRate);
  let index = above === -1 ? ladder.length - 1 : above;
  const steps: RunResult[] = [];
  const step = async (at: number) => {
    const result = await runAtRate(context, subject, {
      rate: ladder[at]!,
      durationMs: options.stepMs,
      workspaces: options.workspaces,
    });
    steps.push(result);
    return result.sustained;
  };

  if (await step(index)) {
    while (index + 1 < ladder.length && (await step(index + 1))) index++;
    return { rate: ladder[index]!, capped: index === ladder.length - 1, steps };
  }
  while (index > 0) {
    index--;
    if (await step(index)) return { rate: ladder[index]!, capped: false, steps };
  }
  return { rate: null, capped: false, steps };
}
