import type { MeteredSql } from "../../platform/sql/meteredSql";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The alarm prunes budgets at most this often. */
const PRUNE_INTERVAL_MS = 3_600_000;

export type BudgetScope = "user" | "workspace";

/** Turns counted for one scope and key in the windows that hold `now` (a window that is over counts 0). */
export interface BudgetCounts {
  minute: number;
  day: number;
}

/** The fixed windows that hold `now`: its UTC minute and its UTC day, by their starts (ms). */
export const windowsAt = (now: number) => ({
  minute: now - (now % MINUTE_MS),
  day: now - (now % DAY_MS),
});

/** When a window starting at `start` ends. */
export const windowEnd = (window: "minute" | "day", start: number) => start + (window === "minute" ? MINUTE_MS : DAY_MS);

/**
 * All SQL touching `turn_budgets` (migrations/0022_turn_budgets.sql): each user's and the
 * workspace's turns in the current UTC minute and day, kept in one row per scope and key that is
 * overwritten as windows pass. Read and counted inside the ingest transaction (budgetedTurns.ts).
 */
export class TurnBudgets {
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly sql: MeteredSql) {}

  /** The turns counted for `key` in the windows holding `now` (one primary-key read). */
  counts(scope: BudgetScope, key: string, now: number): BudgetCounts {
    const at = windowsAt(now);
    const [row] = this.sql.all<{ minute: number; day: number }>(
      `SELECT CASE WHEN minute_start = ?3 THEN minute_count ELSE 0 END AS minute,
              CASE WHEN day_start = ?4 THEN day_count ELSE 0 END AS day
         FROM turn_budgets WHERE scope = ?1 AND key = ?2`,
      scope,
      key,
      at.minute,
      at.day,
    );
    return row ?? { minute: 0, day: 0 };
  }

  /** One more turn for `key` at `now`: one row written (a window that is over starts again at 1). */
  count(scope: BudgetScope, key: string, now: number): void {
    const at = windowsAt(now);
    this.sql.all(
      `INSERT INTO turn_budgets (scope, key, minute_start, minute_count, day_start, day_count) VALUES (?1, ?2, ?3, 1, ?4, 1)
        ON CONFLICT (scope, key) DO UPDATE SET
          minute_count = CASE WHEN minute_start = ?3 THEN minute_count + 1 ELSE 1 END, minute_start = ?3,
          day_count = CASE WHEN day_start = ?4 THEN day_count + 1 ELSE 1 END, day_start = ?4`,
      scope,
      key,
      at.minute,
      at.day,
    );
  }

  /** The alarm's part, once an hour at most: rows of a day that is over count nothing any more, and go. */
  prune(now: number): void {
    if (now - this.prunedAt < PRUNE_INTERVAL_MS) return;
    this.prunedAt = now;
    this.sql.all("DELETE FROM turn_budgets WHERE day_start < ?", windowsAt(now).day);
  }
}
