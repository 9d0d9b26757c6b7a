import type { BudgetWindows, PlannedEffect, TurnBudget, TurnLimit } from "../../app/contract";
import type { Inbound } from "../../inbound/types";
import { type BudgetCounts, type BudgetScope, type TurnBudgets, windowEnd, windowsAt } from "./turnBudgets";
import { refusalOf, TURN_REFUSED } from "./turnRefusals";

/** A delivery's effects once its turns' budgets are judged, and the limit that refused them (if one did). */
export interface BudgetedEffects {
  effects: PlannedEffect[];
  refused?: TurnLimit;
}

/** The first budget of `budget` one more turn would exceed (a day's before a minute's: it resets later), or undefined. */
function overLimit(budget: TurnBudget, counts: (scope: BudgetScope) => BudgetCounts, now: number): TurnLimit | undefined {
  const scopes: [BudgetScope, BudgetWindows | undefined][] = [
    ["user", budget.perUser],
    ["workspace", budget.perWorkspace],
  ];
  for (const [scope, windows] of scopes) {
    if (!windows) continue;
    for (const window of ["day", "minute"] as const) {
      const max = window === "day" ? windows.perDay : windows.perMinute;
      if (max !== undefined && counts(scope)[window] >= max)
        return { scope, window, max, resetsAt: windowEnd(window, windowsAt(now)[window]) };
    }
  }
  return undefined;
}

/**
 * Judges a first-recorded delivery's turns against their budgets (PlannedEffect.budget), inside the
 * ingest transaction: a turn within them is kept and counted — once per delivery, one row per scope
 * (recording/turnBudgets.ts) — and a turn over one is not enqueued: it becomes its refusal
 * (turnRefusals.ts), counted nowhere. Effects without a budget pass untouched, and cost no read.
 */
export function budgetedTurns(budgets: TurnBudgets, inbound: Inbound, effects: PlannedEffect[], now: number): BudgetedEffects {
  if (!effects.some((planned) => planned.budget)) return { effects };
  const read = new Map<string, BudgetCounts>();
  const counted = new Map<BudgetScope, string>();
  const kept: PlannedEffect[] = [];
  let refused: TurnLimit | undefined;
  for (const planned of effects) {
    const { budget } = planned;
    if (!budget) {
      kept.push(planned);
      continue;
    }
    const counts = (scope: BudgetScope) => {
      const key = (scope === "user" ? budget.user : inbound.workspace) ?? "";
      const known = read.get(`${scope}:${key}`) ?? budgets.counts(scope, key, now);
      read.set(`${scope}:${key}`, known);
      return known;
    };
    const limit = overLimit(budget, counts, now);
    if (limit) {
      const refusal = refusalOf(
        planned,
        limit,
        inbound,
        kept.some((effect) => effect.name === TURN_REFUSED),
      );
      if (refusal) kept.push(refusal);
      refused ??= limit;
      continue;
    }
    kept.push(planned);
    if (budget.perUser && budget.user) counted.set("user", budget.user);
    if (budget.perWorkspace) counted.set("workspace", inbound.workspace);
  }
  for (const [scope, key] of counted) budgets.count(scope, key, now);
  return { effects: kept, ...(refused ? { refused } : {}) };
}
