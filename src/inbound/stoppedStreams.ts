import { isObject } from "./fields";
import type { Inbound } from "./types";

/**
 * The streams an `agent_session_stopped` names (`streaming_message_ts`): those Slack showed
 * streaming when the user clicked stop, and stopped. None for any other delivery.
 */
export function stoppedStreams(inbound: Inbound): string[] {
  const event = isObject(inbound.payload.event) ? inbound.payload.event : undefined;
  if (inbound.type !== "agent_session_stopped" || !Array.isArray(event?.streaming_message_ts)) return [];
  return event.streaming_message_ts.map(String);
}
