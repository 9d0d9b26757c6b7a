import type { AssistantThreadStartedEvent } from "@slack/types";
import type { Conversation } from "../../inbound/types";

/** What Slack says the user is viewing beside an assistant thread (`assistant_thread.context`). */
export type AssistantThreadContext = AssistantThreadStartedEvent["assistant_thread"]["context"] & Record<string, unknown>;

/** What a save of a thread's context carries besides the context. */
export interface ContextSave {
  /** The installation the thread belongs to (`Inbound.workspace`): its contexts go when it does. */
  workspace: string;
  /** When Slack says the saving event happened (its `event_ts`), in microseconds since the epoch: saves are ordered by it. */
  eventAt: number;
  /** When it was saved (ms since the epoch): contexts are pruned by it. */
  savedAt: number;
}

/**
 * Where a thread's saved context lives: the shard's own SQLite (parts/threadContexts/assistantThreads.ts), the
 * shard that records the thread's deliveries. Synchronous: a read or a write is one statement.
 * A save of an event older than the saved context's changes nothing (returns false): a retried
 * run of an older `assistant_thread_context_changed` never undoes a newer one. A thread is its
 * conversation: its team, DM channel and root `ts` (its `key` is not needed).
 */
export interface ThreadContextStore extends Partial<SessionTitleStore> {
  get(thread: Pick<Conversation, "team" | "channel" | "threadTs">): AssistantThreadContext | undefined;
  save(thread: Pick<Conversation, "team" | "channel" | "threadTs">, context: AssistantThreadContext, saved: ContextSave): boolean;
}

/**
 * Where the title a user chose for an agent session is kept (`agent_session_title_changed`,
 * parts/threadContexts/sessionTitles.ts), in the same shard as the thread's context, ordered by the event's time
 * as a context is: `setTitle()` skips a thread whose user chose its title, unless told to overwrite.
 */
export interface SessionTitleStore {
  userTitle(thread: Pick<Conversation, "team" | "channel" | "threadTs">): string | undefined;
  keepUserTitle(thread: Pick<Conversation, "team" | "channel" | "threadTs">, title: string, saved: ContextSave): boolean;
}
