import { channelOf } from "../../inbound/channelOf";
import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import { isFromBot, isOwnMessage } from "./filters";
import type { ListenerContext } from "./listenerArgs";
import type { ListenerSpec } from "./listeners";

/** The app's built-in filters (AppOptions). */
export interface DeliveryFilters {
  allowedChannels?: ReadonlySet<string>;
  /** Bolt's `ignoreSelf`: the app's own messages reach no listener (true unless told). */
  ignoreSelf: boolean;
}

/** Built-in filtering: why no listener should ever see this delivery, or undefined. */
export function ignoredDelivery(inbound: Inbound, { allowedChannels, ignoreSelf }: DeliveryFilters): string | undefined {
  const event = inbound.kind === "event" && isObject(inbound.payload.event) ? inbound.payload.event : undefined;
  // Not ignored, they are still bots' messages (listenerWants): only a listener with `includeBots` sees them.
  if (ignoreSelf && event && isOwnMessage(inbound, event)) return "this app's own message";
  const channel = channelOf(inbound);
  if (allowedChannels && channel !== undefined && !allowedChannels.has(channel)) return "channel not allowed";
  return undefined;
}

/** Per-listener filtering: bots' messages and subtypes only for listeners that ask; then `when`. */
export function listenerWants(spec: ListenerSpec, context: ListenerContext): boolean {
  const { event } = context;
  // The app's own messages (reaching listeners with ignoreSelf: false) count as bots' whatever they carry.
  if (event && (isFromBot(event) || isOwnMessage(context.inbound, event)) && !spec.includeBots) return false;
  if (event && !subtypeAllowed(spec, event)) return false;
  return spec.when?.(context) ?? true;
}

/** Subtyped messages (edits, joins, bot posts, …) reach only listeners that ask for them. */
function subtypeAllowed(spec: ListenerSpec, event: Record<string, unknown>): boolean {
  if (typeof event.subtype !== "string") return true;
  return spec.subtypes === "all" || (spec.subtypes?.includes(event.subtype) ?? false);
}
