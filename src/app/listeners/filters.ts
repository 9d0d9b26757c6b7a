import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";

/** Messages posted by bots: replying to them is how bot loops start. */
export function isFromBot(event: Record<string, unknown>): boolean {
  return typeof event.bot_id === "string" || event.subtype === "bot_message";
}

/** The app's own bot user, from the Events API `authorizations`. */
export function ownBotUser(inbound: Inbound): string | undefined {
  const authorizations = inbound.payload.authorizations;
  const first = Array.isArray(authorizations) ? authorizations[0] : undefined;
  return isObject(first) && first.is_bot === true && typeof first.user_id === "string" ? first.user_id : undefined;
}

/** Event types that are messages (a mention is one too); only these can be this app's own words. */
const MESSAGE_EVENTS = new Set(["message", "app_mention"]);

/**
 * Whether an event is a message this app itself wrote (or an edit of one) — never delivered to
 * any listener, so a bot cannot answer itself. Other events about the bot user (it joined a
 * channel, someone reacted to it) are not its messages and reach listeners as usual.
 */
export function isOwnMessage(inbound: Inbound, event: Record<string, unknown>): boolean {
  const bot = ownBotUser(inbound);
  if (bot === undefined || typeof event.type !== "string" || !MESSAGE_EVENTS.has(event.type)) return false;
  return event.user === bot || (isObject(event.message) && event.message.user === bot);
}
