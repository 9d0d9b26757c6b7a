/** How many turns fit in a fixed window: a UTC minute, a UTC day. An absent window is unlimited. */
export interface BudgetWindows {
  perMinute?: number;
  perDay?: number;
}

/**
 * A turn under budgets (`limits`), as its plan hands it to the shard: whose turn it is, the maxima,
 * and whether the app answers a refusal itself (its `exceeded` run) or the coordinator's ephemeral does.
 * Counted, or refused, when its delivery is first recorded (parts/turns/budgetedTurns.ts).
 */
export interface TurnBudget {
  /** The user whose message it is (absent: none named, so only the workspace's budget applies). */
  user?: string;
  perUser?: BudgetWindows;
  perWorkspace?: BudgetWindows;
  /** The listener's `exceeded` answers a refusal: its run, with `limit`, instead of the ephemeral. */
  ownAnswer?: boolean;
}

/** The budget a refused turn was over: whose, which window, its maximum, and when that window ends (ms). */
export interface TurnLimit {
  scope: "user" | "workspace";
  window: "minute" | "day";
  max: number;
  resetsAt: number;
}
