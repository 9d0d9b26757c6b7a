import type { MeteredSql } from "../platform/sql/meteredSql";
import type { DestinationRun } from "../rpc/outcomes";
import type { OpenStreak } from "../rpc/watch";
import { streakAlert, streakRecovered } from "./alertTexts";

/** Consecutive failed attempts of one destination that are alerted (DESIGN: at 1, 5 and 20). */
export const STREAK_THRESHOLDS = [1, 5, 20] as const;

/**
 * A streak with no failure reported for this long is over, recovered or not: a success can go
 * unreported (the shard that saw it had not seen the failures), and an old streak must not
 * silence the next outage. Longer than the backoff between two attempts of one row (1 h at most).
 */
export const STREAK_STALE_MS = 2 * 3_600_000;

type StreakRow = { label: string; failures: number; alerted: number; last_failed_at: number };

/**
 * Consecutive failed attempts per destination, across the shards that report them
 * (`destination_streaks`). Applies one run of outcomes and returns the alerts it calls for: one
 * per threshold per streak (the highest a run reaches, when one run passes several), and one
 * "recovered" at the first success after an alert. A row exists only while a streak lasts; one
 * whose last failure is older than STREAK_STALE_MS is over, and a failure starts a new one.
 */
export function applyRun(sql: MeteredSql, run: DestinationRun, now: number): string[] {
  const [found] = sql.all<StreakRow>(
    "SELECT label, failures, alerted, last_failed_at FROM destination_streaks WHERE destination = ?",
    run.destination,
  );
  const row = found && now - found.last_failed_at < STREAK_STALE_MS ? found : undefined;
  if (run.ok) {
    if (!found) return [];
    sql.all("DELETE FROM destination_streaks WHERE destination = ?", run.destination);
    return row && row.alerted > 0 ? [streakRecovered(row.label, row.failures)] : [];
  }
  const failures = (row?.failures ?? 0) + run.n;
  const alerted = row?.alerted ?? 0;
  const reached = STREAK_THRESHOLDS.filter((threshold) => threshold <= failures && threshold > alerted).at(-1);
  sql.all(
    `INSERT INTO destination_streaks (destination, label, failures, alerted, last_error, last_key, last_failed_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
     ON CONFLICT (destination) DO UPDATE SET label = ?2, failures = ?3, alerted = ?4, last_error = ?5, last_key = ?6,
       last_failed_at = ?7`,
    run.destination,
    run.label,
    failures,
    reached ?? alerted,
    run.error ?? null,
    run.key ?? null,
    now,
  );
  if (reached === undefined) return [];
  return [streakAlert(run.label, failures, run, reached === STREAK_THRESHOLDS.at(-1))];
}

/** The streaks still open at `now` (a failure within STREAK_STALE_MS), longest first. */
export function openStreaks(sql: MeteredSql, now: number): OpenStreak[] {
  return sql
    .all<{
      label: string;
      failures: number;
      alerted: number;
      last_error: string | null;
      last_key: string | null;
      last_failed_at: number;
    }>(
      `SELECT label, failures, alerted, last_error, last_key, last_failed_at FROM destination_streaks
        WHERE last_failed_at > ? ORDER BY failures DESC LIMIT 100`,
      now - STREAK_STALE_MS,
    )
    .map((row) => ({
      label: row.label,
      failures: row.failures,
      alerted: row.alerted,
      lastError: row.last_error,
      lastKey: row.last_key,
      lastFailedAt: row.last_failed_at,
    }));
}
