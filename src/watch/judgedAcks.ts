import { minuteOf } from "../platform/minutes";
import type { HealthWindow } from "../rpc/watch";
import { type AckRow, SUCCESS, UNVERIFIED_MISMATCH, WINDOW_MINUTES } from "./ackWindow";

/**
 * What the guard judges (docs/guides/operations.md "Alerts"): what Slack's own count of failed deliveries would
 * see. Acks to verified requests always count. A request whose signature did not verify may
 * be anyone's, so it counts apart (`unverified`) — unless it looked like Slack's (a signature
 * mismatch) and the outsider explanation fails: verified requests have stopped arriving at the
 * rate they had, or there were none in the window to compare with. That is what a changed
 * SLACK_SIGNING_SECRET looks like: Slack's own requests turn from verified into mismatches.
 */

/** Verified requests have stopped once none arrived for at least this long… */
export const STOPPED_MIN_SILENCE_MS = 30_000;
/** …and for at least this many of their mean intervals in the window. */
export const STOPPED_INTERVALS = 4;

const isVerified = (cause: string) => !cause.startsWith("unverified:");

/**
 * From which minute signature mismatches are judged: every minute when the window has no
 * verified request; from the last minute with one when verified requests have stopped; else none.
 * Silence is measured from the end of that minute, the finest the tallies know.
 */
export function mismatchesJudgedFrom(rows: AckRow[], now: number): number {
  let verified = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const { minute, cause, n } of rows) {
    if (!isVerified(cause) || n === 0) continue;
    verified += n;
    first = Math.min(first, minute);
    last = Math.max(last, minute);
  }
  if (verified === 0) return -Infinity;
  const meanIntervalMs = ((last + 1 - first) * 60_000) / verified;
  const silenceMs = now - (last + 1) * 60_000;
  return silenceMs >= Math.max(STOPPED_MIN_SILENCE_MS, STOPPED_INTERVALS * meanIntervalMs) ? last : Infinity;
}

/** The window the guard judges and GET /admin/health shows: judged mismatches count as 401s. */
export function judgedWindow(rows: AckRow[], now: number): HealthWindow {
  const judgedFrom = mismatchesJudgedFrom(rows, now);
  const current = minuteOf(now);
  // `answered` is GET /admin/health's field (the interface contract): the acks counted.
  let answered = 0;
  let failed = 0;
  let unverified = 0;
  let first = current;
  const byCause: Record<string, number> = {};
  for (const { minute, cause, n } of rows) {
    const judgedMismatch = cause === UNVERIFIED_MISMATCH && minute >= judgedFrom;
    if (!isVerified(cause) && !judgedMismatch) {
      unverified += n;
      continue;
    }
    answered += n;
    first = Math.min(first, minute);
    if (cause === SUCCESS) continue;
    failed += n;
    const status = judgedMismatch ? "401" : cause;
    byCause[status] = (byCause[status] ?? 0) + n;
  }
  return {
    window_minutes: WINDOW_MINUTES,
    answered,
    failed,
    by_cause: byCause,
    ratio: answered === 0 ? 0 : Math.round((failed / answered) * 1000) / 1000,
    unverified,
    span_minutes: current - first + 1,
  };
}
