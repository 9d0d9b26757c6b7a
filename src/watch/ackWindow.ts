import { minuteOf } from "../platform/minutes";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { AckTally } from "../rpc/watch";

export const WINDOW_MINUTES = 60;

export const SUCCESS = "2xx";
/** Refused for a signature that did not verify though it looked like Slack's: what a changed secret gives Slack's own requests. */
export const UNVERIFIED_MISMATCH = "unverified:mismatch";
/** Refused before any signature could verify (garbled or stale headers, a body over the cap): never Slack's count. */
export const UNVERIFIED_OTHER = "unverified:other";

/**
 * How far a request got in proving it is Slack's: "verified" (or refused for our configuration,
 * which Slack's requests get too); "mismatch" (a well-formed `v0=` signature on a fresh timestamp
 * and a body within the cap, matching no secret); "unverified" (refused before that).
 */
export type Verification = "verified" | "mismatch" | "unverified";

/** Adds `n` acks of `cause` in `minute` to a tally. */
export function addToTally(tally: AckTally, minute: number, cause: string, n = 1): void {
  const counts = tally[minute] ?? {};
  counts[cause] = (counts[cause] ?? 0) + n;
  tally[minute] = counts;
}

/** Adds a whole tally into another, leaving out minutes already outside the window at `now`. */
export function mergeTally(into: AckTally, from: AckTally, now: number): void {
  const oldest = minuteOf(now) - WINDOW_MINUTES + 1;
  for (const [minute, causes] of Object.entries(from)) {
    if (Number(minute) < oldest) continue;
    for (const [cause, n] of Object.entries(causes)) addToTally(into, Number(minute), cause, n);
  }
}

/** A 503 because the shard refused the ingest as overloaded (OVERLOAD_WAIT_MS), not because a record failed or was slow. */
export const OVERLOADED = "503:overloaded";

/** The cause an ack is counted under. */
export function causeOf(status: number, verification: Verification, overloaded = false): string {
  if (verification === "mismatch") return UNVERIFIED_MISMATCH;
  if (verification === "unverified") return UNVERIFIED_OTHER;
  if (overloaded) return OVERLOADED;
  return status >= 200 && status < 300 ? SUCCESS : String(status);
}

/** One row of the window: acks of one cause in one minute. */
export type AckRow = {
  minute: number;
  cause: string;
  n: number;
};

/**
 * The watch's table of acks to Slack (`answer_counts`, the name migration 0003 gave it): one
 * row per minute and cause, summed from each Worker instance's tallies, so the cost is per flush,
 * not per request. Rows older than the window are dropped as new ones arrive.
 */
export class AckWindow {
  constructor(private readonly sql: MeteredSql) {}

  add(tally: AckTally, now: number): void {
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

  /** The window's rows at `now`, for judgedWindow. */
  rows(now: number): AckRow[] {
    return this.sql.all<AckRow>("SELECT minute, cause, n FROM answer_counts WHERE minute > ?", minuteOf(now) - WINDOW_MINUTES);
  }
}
