import { Paced, SlackApiError, SlackUnreachable } from "../platform/errors";

/** Slack's answer to a write on a stream it dropped (about 5 minutes after its start) or that was stopped. */
export const NOT_STREAMING = "message_not_in_streaming_state";
/** Slack's answer to a call on a message that is no more (deleted): what it would do is done. */
export const GONE = "message_not_found";

export function refusedWith(error: unknown, code: string): boolean {
  return error instanceof SlackApiError && error.code === code;
}

/** Until when a call is held back, by the pacer or Slack's 429 (when it may go again); undefined for any other error. */
export function heldUntil(error: unknown): number | undefined {
  if (error instanceof Paced) return error.until;
  if (error instanceof SlackApiError && error.status === 429) return error.retryAt ?? Date.now() + (error.retryAfterMs ?? 1000);
  return undefined;
}

/**
 * Whether Slack answered a call and did not apply it: an `ok:false` code or a 4xx it sent. A 5xx
 * is not one — a proxy may answer it after Slack applied the call — nor is a timeout or a reset.
 */
export function refusedBySlack(error: unknown): boolean {
  return error instanceof SlackApiError && error.status < 500;
}

/** An answer never learned, so Slack may have applied the call: a timeout, a reset, a 5xx. */
export function outcomeUnknown(error: unknown): boolean {
  return error instanceof SlackUnreachable || (error instanceof SlackApiError && error.status >= 500);
}
