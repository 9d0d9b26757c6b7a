import type { AssistantThreadStartedEvent } from "@slack/types";
import { isObject } from "../inbound/fields";
import type { Inbound } from "../inbound/types";

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

/** A Slack `ts` ("1783536983.783769") in microseconds, exactly (a double would round it); undefined if it is none. */
function microsOfTs(ts: unknown): number | undefined {
  if (typeof ts !== "string") return undefined;
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(ts);
  if (!match) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? "").padEnd(6, "0"));
}

/**
 * When Slack says a delivery's event happened, in microseconds: the event's `event_ts`, else the
 * envelope's `event_time` (whole seconds), else when the edge received it — the same on every
 * retry of the run, so saves are ordered by the events, not by when their runs happened to run.
 */
export function eventTimeOf(inbound: Inbound, now: number): number {
  const event = isObject(inbound.payload.event) ? inbound.payload.event : {};
  const eventTs = microsOfTs(event.event_ts);
  if (eventTs !== undefined) return eventTs;
  const eventTime = inbound.payload.event_time;
  if (typeof eventTime === "number" && Number.isFinite(eventTime)) return Math.floor(eventTime) * 1_000_000;
  return (inbound.receivedAt ?? now) * 1_000;
}

/** Where a delivery of the assistant surface happened: its DM channel, its thread (none for the agent view's own events), Slack's context. */
export interface AssistantPlace {
  channel: string;
  threadTs?: string;
  context?: AssistantThreadContext;
}
