import type { CallResult } from "../slack/webApi";

/** What to do with an outbox row after one attempt. */
export type Verdict =
  | { outcome: "delivered" }
  | { outcome: "retry"; reason: string; retryAfterMs?: number }
  | { outcome: "park"; reason: string }
  /** The attempt found its lease taken by another claimer (a step write was fenced out). */
  | { outcome: "lease_lost" };

/** Slack error codes that a later attempt can succeed past. */
const TRANSIENT_ERRORS = new Set(["ratelimited", "internal_error", "fatal_error", "service_unavailable", "request_timeout"]);

/** Per method, errors that mean the effect already holds: a redelivery of an idempotent-by-shape call. */
const ALREADY_DONE: Record<string, string> = {
  "reactions.add": "already_reacted",
  "reactions.remove": "no_reaction",
  "pins.add": "already_pinned",
  "pins.remove": "no_pin",
  "chat.delete": "message_not_found",
};

const TRANSIENT_STATUSES = new Set([408, 429]);

/**
 * Classifies one answer. Transient: 5xx, 408, 429 and Slack's transient codes — retried with
 * backoff, never sooner than Retry-After. Permanent: every other 4xx and `ok: false` code
 * (`channel_not_found`, `invalid_auth`, `msg_too_long`, …) — parked at once for an operator.
 */
export function classify(result: CallResult, method?: string): Verdict {
  if (result.ok) return { outcome: "delivered" };
  const reason = result.error ? `${result.status} ${result.error}` : `HTTP ${result.status}`;
  if (method !== undefined && result.error !== undefined && ALREADY_DONE[method] === result.error) return { outcome: "delivered" };
  if (result.status >= 500 || TRANSIENT_STATUSES.has(result.status) || (result.error && TRANSIENT_ERRORS.has(result.error))) {
    return { outcome: "retry", reason, retryAfterMs: result.retryAfterMs };
  }
  return { outcome: "park", reason };
}

/**
 * What a thrown error means for the row. Slack's own answers carry their classification;
 * an expired trigger_id or response_url is permanent; a lost lease means another attempt
 * owns the row now. Everything else — network errors, resets, timeouts, no bot token yet,
 * an exception in a handler — is transient: it can be over by the next attempt.
 */
export function verdictOf(error: unknown): Verdict {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  const verdict = (error as { verdict?: Verdict } | null)?.verdict;
  if (name === "SlackApiError" && verdict) {
    const method = (error as { method: string }).method;
    return verdict.outcome === "retry" || verdict.outcome === "park" ? { ...verdict, reason: `${method}: ${verdict.reason}` } : verdict;
  }
  // Expired handles and runs whose listener a deploy removed cannot succeed by retrying.
  if (name === "ExpiredHandle" || name === "ListenerGone") return { outcome: "park", reason: message };
  if (name === "LeaseLost") return { outcome: "lease_lost" };
  if (name === "TimeoutError" || name === "AbortError") return { outcome: "retry", reason: "timeout" };
  if (name === "MissingBotToken") return { outcome: "retry", reason: message };
  if (name === "TypeError") return { outcome: "retry", reason: `network: ${message}`.slice(0, 300) };
  return { outcome: "retry", reason: `${name}: ${message}`.slice(0, 300) };
}
