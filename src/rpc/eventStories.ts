/**
 * An event's story as the look-up API gives it (GET /admin/api/events…; docs/design.md "An event's
 * story"): types, and the mark of a redacted payload. Kept in the rows the delivery already wrote —
 * its receipt and its effects' outbox rows — for the receipt window. Crosses the RPC boundary: only
 * ever gain optional fields.
 */

import type { MessageStory, WaitingStory } from "./effectMessages";

/** The field a payload kept `redacted` carries (`"redacted": true`): a re-run refuses such a payload. */
export const REDACTED_MARK = "redacted";

/**
 * An effect's status: its outbox row's — `done` once delivered (kept with its story until its
 * generation is dropped) — or `settled` once the row is gone (discarded, or completed by a version
 * that deleted delivered rows).
 */
export type EffectStatus = "pending" | "parked" | "stopped" | "done" | "settled";

/** One Slack call of an attempt. */
export interface CallStory {
  /** The Web API method (or `response_url`). */
  method: string;
  ok: boolean;
  /** What went wrong, as the row's error says it. */
  error?: string;
  /** The message's `ts` Slack answered with, when it named one. */
  ts?: string;
  /** From sending to its answer (0 when found by lookup). */
  ms: number;
  /** Not made: a lookup found the post an earlier attempt made, which answered it (docs/reference/delivery.md "Uncertain posts"). */
  foundByLookup?: true;
}

/** One attempt that settled on its row (retried, parked, stopped, done). */
export interface AttemptStory {
  start: number;
  end: number;
  /** `lease_lost`: its lease ran out before it settled, and another attempt took the row over (written by that claim). */
  outcome: "retried" | "parked" | "stopped" | "lease_lost" | "done";
  /** Why it settled so (none when it was done). */
  error?: string;
  calls: CallStory[];
}

/** One effect of a delivery: its outbox row as it stands. */
export interface EffectStory {
  /** The outbox key: `{dedupe key or message key}:{listener's effect name}`. */
  key: string;
  status: EffectStatus;
  /** The row's kind (`run`, `slack.api`, `relay`, …); null once settled. */
  effect: string | null;
  /** Attempts that failed and were counted so far (0 while its first runs); null once settled. */
  attempts: number | null;
  lastError: string | null;
  /** When it is due again (pending), null otherwise. */
  nextAttemptAt: number | null;
  /** An attempt holds its lease now. */
  leased: boolean;
  parkedAt: number | null;
  /** Its last attempts that settled on the row, oldest first (kept while the row is, done rows too; none once settled). */
  history: AttemptStory[];
  /** What its run waits for while suspended (`waitForAction`, `sleep`), else null; only in one delivery's story. */
  waiting?: WaitingStory | null;
  /** The messages its run posted or streamed, as its checkpoints and waits name them; only in one delivery's story. */
  messages?: MessageStory[];
}

/** A delivery as the list shows it. */
export interface EventSummary {
  /** The dedupe key (`event_id` or `trigger_id`), or `fact:{outbox key}` for a message's fact receipt. */
  id: string;
  kind: string;
  type: string;
  workspace: string;
  channel: string | null;
  user: string | null;
  thread: string | null;
  receivedAt: number;
  /** Slack's `X-Slack-Retry-Num` / `-Reason` of the delivery recorded (the first that arrived). */
  retryNum: number | null;
  retryReason: string | null;
  /** The worst of its effects' (parked, stopped, pending, done, settled), or `settled` with none. */
  status: EffectStatus;
  effects: EffectStory[];
}

/** One delivery's whole story (GET /admin/api/events/{id}). */
export interface EventStory extends EventSummary {
  /** The payload as EVENT_PAYLOADS kept it (`full`, or `redacted` with REDACTED_MARK), null with `none`. */
  payload: unknown;
  /** A re-run's: the story id it re-ran (POST /admin/api/events/{id}/rerun). Absent from shards of an earlier version. */
  rerunOf?: string;
  /** Its re-runs' ids, oldest first, while their receipts are kept. Absent from shards of an earlier version. */
  reruns?: string[];
}

/** What the list asks a shard (GET /admin/api/events). */
export interface EventFilter {
  channel?: string;
  user?: string;
  status?: EffectStatus;
  /** A listener's effect name: the events with an effect of that name. */
  listener?: string;
  since?: number;
  until?: number;
  /** Newest first, strictly before this (received time, then id). */
  before?: { receivedAt: number; id: string } | null;
  limit: number;
}
