import type { AssistantThreadStartedEvent } from "@slack/types";
import { isObject, optionalString } from "../inbound/fields";

/** What Slack says the user is viewing beside an assistant thread (`assistant_thread.context`). */
export type AssistantThreadContext = AssistantThreadStartedEvent["assistant_thread"]["context"] & Record<string, unknown>;

/** One assistant thread of a team: the DM channel and the thread's root `ts`. */
export interface ThreadKey {
  team: string;
  channel: string;
  threadTs: string;
}

/**
 * Where a thread's saved context lives: the shard's own SQLite (recording/assistantThreads.ts), the
 * shard that records the thread's deliveries. Synchronous: a read or a write is one statement.
 */
export interface ThreadContextStore {
  get(thread: ThreadKey): AssistantThreadContext | undefined;
  save(thread: ThreadKey, context: AssistantThreadContext, now: number): void;
}

/** Where a delivery of the assistant surface happened: its DM channel, its thread (none for the agent view's own events), Slack's context. */
export interface AssistantPlace {
  channel: string;
  threadTs?: string;
  context?: AssistantThreadContext;
}

/**
 * The place of an event: an assistant thread's (`assistant_thread`: `channel_id`, `thread_ts`,
 * `context`), a message's thread (`thread_ts ?? ts`: under the agent view a user's message is the
 * root of its own thread), or the channel alone (`app_home_opened`, `app_context_changed`).
 */
export function placeOf(event: Record<string, unknown>): AssistantPlace | undefined {
  const thread = event.assistant_thread;
  if (isObject(thread)) {
    const channel = optionalString(thread.channel_id);
    const threadTs = optionalString(thread.thread_ts);
    if (!channel || !threadTs) return undefined;
    return { channel, threadTs, context: isObject(thread.context) ? (thread.context as AssistantThreadContext) : undefined };
  }
  const channel = optionalString(event.channel);
  if (!channel) return undefined;
  if (event.type !== "message") return { channel };
  const threadTs = optionalString(event.thread_ts) ?? optionalString(event.ts);
  return threadTs ? { channel, threadTs } : { channel };
}
