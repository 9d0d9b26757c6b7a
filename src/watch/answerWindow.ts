import type { MeteredSql } from "../shard/meteredSql";

export const WINDOW_MINUTES = 60;

/** Answers the edge gave Slack, per minute (ms since the epoch / 60 000) and cause: "2xx" or the status. */
export type AnswerTally = Record<number, Record<string, number>>;

export const SUCCESS = "2xx";

/** Adds `n` answers of `cause` in `minute` to a tally. */
export function addToTally(tally: AnswerTally, minute: number, cause: string, n = 1): void {
  const counts = tally[minute] ?? {};
  counts[cause] = (counts[cause] ?? 0) + n;
  tally[minute] = counts;
}

/** Adds a whole tally into another, leaving out minutes already outside the window at `now`. */
export function mergeTally(into: AnswerTally, from: AnswerTally, now: number): void {
  const oldest = minuteOf(now) - WINDOW_MINUTES + 1;
  for (const [minute, causes] of Object.entries(from)) {
    if (Number(minute) < oldest) continue;
    for (const [cause, n] of Object.entries(causes)) addToTally(into, Number(minute), cause, n);
  }
}

/** The rolling window as GET /admin/health shows it (DESIGN §3). */
export interface HealthWindow {
  window_minutes: number;
  answered: number;
  failed: number;
  /** Failed answers by cause: the status Slack got ("401", "503", …). */
  by_cause: Record<string, number>;
  ratio: number;
  /** Minutes from the window's first answer to now (at least 1): "in the last N minutes". */
  span_minutes: number;
}

/** The cause an answer is counted under. */
export const causeOf = (status: number) => (status >= 200 && status < 300 ? SUCCESS : String(status));

/**
 * The watch's table of answers to Slack (`answer_counts`): one row per minute and cause, summed
 * from each Worker instance's tallies, so the cost is per flush, not per request. Rows older
 * than the window are dropped as new ones arrive.
 */
export class AnswerWindow {
  constructor(private readonly sql: MeteredSql) {}

  add(tally: AnswerTally, now: number): void {
    const oldest = minuteOf(now) - WINDOW_MINUTES + 1;
    for (const [minute, causes] of Object.entries(tally)) {
      if (Number(minute) < oldest) continue;
      for (const [cause, n] of Object.entries(causes)) {
        this.sql.all(
          `INSERT INTO answer_counts (minute, cause, n) VALUES (?, ?, ?)
           ON CONFLICT (minute, cause) DO UPDATE SET n = n + excluded.n`,
          Number(minute),
          cause,
          n,
        );
      }
    }
    this.sql.all("DELETE FROM answer_counts WHERE minute < ?", oldest);
  }

  summary(now: number): HealthWindow {
    const current = minuteOf(now);
    const rows = this.sql.all<{ cause: string; n: number; first: number }>(
      "SELECT cause, sum(n) AS n, min(minute) AS first FROM answer_counts WHERE minute > ? GROUP BY cause",
      current - WINDOW_MINUTES,
    );
    let answered = 0;
    let failed = 0;
    let first = current;
    const byCause: Record<string, number> = {};
    for (const row of rows) {
      answered += row.n;
      first = Math.min(first, row.first);
      if (row.cause === SUCCESS) continue;
      failed += row.n;
      byCause[row.cause] = row.n;
    }
    return {
      window_minutes: WINDOW_MINUTES,
      answered,
      failed,
      by_cause: byCause,
      ratio: answered === 0 ? 0 : Math.round((failed / answered) * 1000) / 1000,
      span_minutes: current - first + 1,
    };
  }
}

export const minuteOf = (at: number) => Math.floor(at / 60_000);
