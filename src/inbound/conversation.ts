import { isObject, optionalString } from "./fields";
import type { Conversation } from "./types";

type Json = Record<string, unknown>;

/** A conversation of `team` in `channel` whose root is `threadTs`; undefined unless both are there and `threadTs` is a time. */
function conversation(team: string, channel: unknown, threadTs: unknown): Conversation | undefined {
  const id = optionalString(channel);
  const thread = optionalString(threadTs);
  if (!id || !thread || !(Number(thread) > 0)) return undefined;
  return { key: `${team}:${id}:${thread}`, team, channel: id, threadTs: thread };
}

/** When a conversation began (ms since the epoch): its root's `ts`. */
export function conversationStartedAt(conversation: Conversation): number {
  return Math.floor(Number(conversation.threadTs) * 1000);
}

/**
 * The conversation an event belongs to: an assistant thread (`assistant_thread` naming its
 * `channel_id` and `thread_ts`), a message's thread (`thread_ts ?? ts`, of the message an edit or
 * deletion is about; a user's message in an assistant thread carries only an `action_token` in its
 * `assistant_thread`), or an event naming `channel` and `thread_ts` (agent sessions:
 * `agent_session_stopped`, …). Others have none.
 */
export function eventConversation(team: string, event: Json): Conversation | undefined {
  const thread = isObject(event.assistant_thread) ? event.assistant_thread : undefined;
  const assistantThread = thread && conversation(team, thread.channel_id, thread.thread_ts);
  if (assistantThread) return assistantThread;
  if (event.type === "message" || event.type === "app_mention") {
    const message = isObject(event.message) ? event.message : isObject(event.previous_message) ? event.previous_message : event;
    return conversation(team, event.channel, optionalString(message.thread_ts) ?? message.ts);
  }
  return conversation(team, event.channel, event.thread_ts);
}

/** The conversation of an interaction on a message (`block_actions`, `message_action`): that message's thread. */
export function interactionConversation(team: string, payload: Json): Conversation | undefined {
  const channel = isObject(payload.channel) ? payload.channel.id : undefined;
  if (isObject(payload.message)) {
    return conversation(team, channel, optionalString(payload.message.thread_ts) ?? payload.message.ts);
  }
  const container = isObject(payload.container) ? payload.container : {};
  if (container.type !== "message") return undefined;
  return conversation(team, container.channel_id, optionalString(container.thread_ts) ?? container.message_ts);
}
