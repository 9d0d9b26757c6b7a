import type { AssistantThreadStartedEvent } from "@slack/types";

/** What Slack says the user is viewing beside an assistant thread (`assistant_thread.context`). */
export type AssistantThreadContext = AssistantThreadStartedEvent["assistant_thread"]["context"] & Record<string, unknown>;

/** One assistant thread of a team: the DM channel and the thread's root `ts`. */
export interface ThreadKey {
  team: string;
  channel: string;
  threadTs: string;
}

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
 * Where a thread's saved context lives: the shard's own SQLite (recording/assistantThreads.ts), the
 * shard that records the thread's deliveries. Synchronous: a read or a write is one statement.
 * A save of an event older than the saved context's changes nothing (returns false): a retried
 * run of an older `assistant_thread_context_changed` never undoes a newer one.
 */
export interface ThreadContextStore {
  get(thread: ThreadKey): AssistantThreadContext | undefined;
  save(thread: ThreadKey, context: AssistantThreadContext, saved: ContextSave): boolean;
}
