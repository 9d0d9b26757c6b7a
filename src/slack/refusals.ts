import { Paced, SlackApiError } from "../platform/errors";

/** Slack's answer to a write on a stream it dropped (about 5 minutes after its start) or that was stopped. */
export const NOT_STREAMING = "message_not_in_streaming_state";
/** Slack's answer to a call on a message that is no more (deleted): what it would do is done. */
export const GONE = "message_not_found";

export function refusedWith(error: unknown, code: string): boolean {
  return error instanceof SlackApiError && error.code === code;
}

/** When a call held back by the pacer or by Slack's 429 may go again; undefined for any other error. */
export function turnOf(error: unknown): number | undefined {
  if (error instanceof Paced) return error.until;
  if (error instanceof SlackApiError && error.status === 429) return error.retryAt ?? Date.now() + (error.retryAfterMs ?? 1000);
  return undefined;
}
