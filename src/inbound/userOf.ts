import { isObject, optionalString } from "./fields";
import type { Inbound } from "./types";

/**
 * The user a delivery comes from, as Slack names them: an event's `user` (a message, a mention,
 * `agent_session_stopped`), the edited message's author (`message_changed`), an assistant thread's
 * `user_id`; an interaction's `user.id`; a command's `user_id`. Undefined when it names none.
 */
export function userOf(inbound: Inbound): string | undefined {
  const { payload } = inbound;
  if (inbound.kind === "command") return optionalString(payload.user_id);
  if (inbound.kind === "interaction") return isObject(payload.user) ? optionalString(payload.user.id) : undefined;
  const event = isObject(payload.event) ? payload.event : {};
  if (typeof event.user === "string") return optionalString(event.user);
  if (isObject(event.user)) return optionalString(event.user.id);
  if (isObject(event.message)) return optionalString(event.message.user);
  return isObject(event.assistant_thread) ? optionalString(event.assistant_thread.user_id) : undefined;
}
