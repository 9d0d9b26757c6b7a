import type { CallResult } from "./webApi";

/** Slack error codes that mean the token itself is dead (the installation is gone or revoked). */
export const TOKEN_REJECTIONS: ReadonlySet<string> = new Set(["invalid_auth", "not_authed", "token_revoked", "account_inactive"]);

/**
 * Slack error codes that a later attempt can succeed past. `assistant_search_context_disabled`:
 * "We're having issues returning your search results. Please wait and try again." (its method's page).
 */
const TRANSIENT_ERRORS = new Set([
  "ratelimited",
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "assistant_search_context_disabled",
]);

/** Per method, errors that mean the effect already holds: a redelivery of an idempotent-by-shape call. */
const ALREADY_DONE: Record<string, string> = {
  "reactions.add": "already_reacted",
  "reactions.remove": "no_reaction",
  "pins.add": "already_pinned",
  "pins.remove": "no_pin",
  "chat.delete": "message_not_found",
  // The execution is no longer running: completed already (a redelivery), or ended by Slack.
  "functions.completeSuccess": "execution_not_in_running_state",
  "functions.completeError": "execution_not_in_running_state",
};

/**
 * Per method, refusals that tell a message's state — the stream is no longer streaming (stopped,
 * or dropped by Slack) — which their callers read and act on: Slack answered, and is healthy, so
 * they are no failure of the destination (alerts), though the call still throws for its caller.
 */
const STATE_ANSWERS: Record<string, string> = {
  "chat.stopStream": "message_not_in_streaming_state",
  "chat.appendStream": "message_not_in_streaming_state",
};

/** Whether an answer to `method` tells the destination is healthy: a success, or a message-state refusal (STATE_ANSWERS). */
export function healthyAnswer(result: CallResult, method: string): boolean {
  return result.ok || (result.error !== undefined && STATE_ANSWERS[method] === result.error);
}

const TRANSIENT_STATUSES = new Set([408, 429]);

/** An answer's class: what one answer from Slack means for the call that got it (docs/design.md "Words"). */
export type AnswerClass = "delivered" | "retry" | "park";

/**
 * The class of one answer from Slack. Transient: 5xx, 408, 429 and Slack's transient codes —
 * retried with backoff, never sooner than Retry-After. Permanent: every other 4xx and `ok: false`
 * code (`channel_not_found`, `invalid_auth`, `msg_too_long`, …) — parked at once for an operator.
 * An "already done" answer of an idempotent-by-shape method counts as delivered.
 */
export function classifyAnswer(result: CallResult, method?: string): AnswerClass {
  if (result.ok) return "delivered";
  if (method !== undefined && result.error !== undefined && ALREADY_DONE[method] === result.error) return "delivered";
  if (result.status >= 500 || TRANSIENT_STATUSES.has(result.status)) return "retry";
  if (result.error !== undefined && TRANSIENT_ERRORS.has(result.error)) return "retry";
  return "park";
}
