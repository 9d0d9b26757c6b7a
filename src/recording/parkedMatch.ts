import type { ParkedFilter } from "../rpc/parkedFilter";

/** What a filter reads of a parked row: its kind, workspace, a `slack.api` row's method, the last error. */
export type ParkedFacts = {
  workspace: string;
  effect: string;
  method: string | null;
  last_error: string | null;
};

/** Slack's error code in a stored error, as SlackApiError words it: `chat.update: 429 ratelimited (…)` → `ratelimited`. */
export function slackErrorCode(error: string): string | undefined {
  return /^[\w.]+: \d{3} ([a-z0-9_]+)(?: |$)/.exec(error)?.[1];
}

/**
 * Whether a parked row matches a filter's fields other than time (the batch's index range reads
 * those): each field present must hold. `error` matches Slack's error code exactly, or else the
 * start of the stored error (`HTTP 5`, `relay`): never a substring, so a discard does not widen.
 */
export function matchesParked(filter: ParkedFilter, row: ParkedFacts): boolean {
  if (filter.workspace !== undefined && row.workspace !== filter.workspace) return false;
  if (filter.effect !== undefined && row.effect !== filter.effect) return false;
  if (filter.method !== undefined && (row.effect !== "slack.api" || row.method !== filter.method)) return false;
  if (filter.error === undefined) return true;
  const error = row.last_error ?? "";
  return slackErrorCode(error) === filter.error || error.startsWith(filter.error);
}
