import { isObject } from "./fields";
import type { Inbound } from "./types";

/** The channel a delivery happened in, whatever its surface. */
export function channelOf(inbound: Inbound): string | undefined {
  const { payload } = inbound;
  if (inbound.kind === "command") return typeof payload.channel_id === "string" ? payload.channel_id : undefined;
  if (inbound.kind === "event" && isObject(payload.event)) {
    const { event } = payload;
    if (typeof event.channel === "string") return event.channel;
    if (isObject(event.item) && typeof event.item.channel === "string") return event.item.channel;
    // An assistant thread's events name its DM channel inside `assistant_thread`.
    if (isObject(event.assistant_thread) && typeof event.assistant_thread.channel_id === "string")
      return event.assistant_thread.channel_id;
    return undefined;
  }
  return isObject(payload.channel) && typeof payload.channel.id === "string" ? payload.channel.id : undefined;
}
