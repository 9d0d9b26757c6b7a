import type { Effect } from "../app/contract";
import { rateKeyOf } from "../effects/registry";
import type { MeteredSql } from "../platform/sql/meteredSql";
import { FOLDED_COLUMNS, type FoldedReceipt, foldedValues } from "./foldedReceipts";
import type { TurnOfRow } from "./outboxTurns";

/** A row as the delivery loop sees it. */
export type ClaimedRow = {
  idempotency_key: string;
  workspace: string;
  payload: string;
  rate_key: string | null;
  attempts: number;
  created_at: number;
  /**
   * Since when the row's posts are uncertain (a post of an earlier attempt may be in Slack
   * unbeknown to the row: migrations/0012_uncertain_posts.sql), or null: none can be.
   */
  posts_uncertain_since?: number | null;
  /** When the lease this attempt holds was taken: every earlier attempt of the row had ended by then. */
  claimed_at?: number | null;
  /** A turn's conversation (migrations/0014_turns.sql): when it settles, the conversation's next turn may begin. */
  turn?: string | null;
  /** A suspended run's conversation while its turn is given back: it takes a new one when it wakes (parts/turns/suspendedTurns.ts). */
  turn_released?: string | null;
  /** Written unleased: an earlier turn of its conversation holds the thread (recording/outboxTurns.ts). */
  waitsForTurn?: boolean;
  /** Written unleased, due then: a merge turn in its quiet period (parts/turns/mergedTurns.ts); the alarm runs it. */
  dueAt?: number;
  /** The effect itself, for a row its ingest just wrote: the immediate attempt parses nothing back. */
  effect?: Effect;
  /**
   * For a row its ingest just wrote, leased: until this time no step checkpoint can exist on it
   * (no attempt before, and no other claimer before the lease runs out), so none is read.
   */
  noCheckpointsUntil?: number;
};

/** A row as stored (the effect as its JSON only). */
export type StoredRow = Omit<ClaimedRow, "effect" | "waitsForTurn" | "dueAt">;

/** A row to enqueue: its idempotency key, workspace, effect (type and JSON) and rate key. */
export interface NewRow {
  key: string;
  workspace: string;
  effectType: string;
  payload: string;
  rateKey: string | null;
  /** The effect `payload` serialises, when the caller has it (handed to the immediate attempt as is). */
  effect?: Effect;
  /** A park follow-up (outbox.parked.park): it gets no follow-ups of its own when it is parked. */
  followUp?: boolean;
  /** A turn: its conversation and place there (one turn at a time per conversation: outboxTurns.ts). */
  turn?: TurnOfRow;
  /** Written unleased and due then, unless its turn waits (held): a merge turn's quiet period. */
  dueAt?: number;
  /** A merge turn: the burst it takes in until it starts (parts/turns/mergedTurns.ts `burstOf`). */
  burst?: string;
  /** The receipt this row carries, written by its INSERT instead of a receipt row (foldedReceipts.ts). */
  receipt?: FoldedReceipt;
}

/** A lease on freshly enqueued rows, so their first attempt needs no separate claim write. */
export interface Lease {
  token: string;
  expiresAt: number;
}

/**
 * The one way an effect becomes a row to enqueue (a delivery's effects, the watch's alerts): its
 * type, its JSON and its rate key (stored on the row, so the sweep need not parse payloads).
 */
export function newRow(key: string, workspace: string, effect: Effect): NewRow {
  return {
    key,
    workspace,
    effectType: effect.type,
    payload: JSON.stringify(effect),
    rateKey: rateKeyOf(effect),
    effect,
  };
}

/** A row as its enqueue wrote it, for the immediate attempt: built from what was written, with the effect object itself (no read-back). */
export function enqueuedRow(row: NewRow, attempts: number, now: number, leased: Lease | null, waits: boolean): ClaimedRow {
  return {
    idempotency_key: row.key,
    workspace: row.workspace,
    payload: row.payload,
    rate_key: row.rateKey,
    attempts,
    created_at: now,
    turn: row.turn?.conversation ?? null,
    ...(waits ? { waitsForTurn: true } : {}),
    ...(!waits && row.dueAt !== undefined ? { dueAt: row.dueAt } : {}),
    effect: row.effect,
    noCheckpointsUntil: leased?.expiresAt,
    claimed_at: leased ? now : null,
  };
}

/**
 * Whether a row its ingest just wrote is still in its first lease (`noCheckpointsUntil`): until
 * then no other claimer can hold it and no earlier attempt can have left a checkpoint on it.
 */
export function inFirstLease(noCheckpointsUntil: number | undefined, now = Date.now()): boolean {
  return noCheckpointsUntil !== undefined && now < noCheckpointsUntil;
}

/**
 * Writes one new row, due at `dueAt`, leased to `leased` or not; the idempotency key makes a
 * repeated enqueue a no-op. Returns `[{ attempts }]` when the row was new, `[]` when it was there.
 */
export function insertRow(
  sql: MeteredSql,
  row: NewRow,
  now: number,
  leased: Lease | null,
  dueAt: number,
): { attempts: number }[] {
  return sql.all<{ attempts: number }>(
    `INSERT INTO outbox (idempotency_key, workspace, effect, payload, rate_key, next_attempt_at, claim_token, claim_expires_at, created_at, followed_up_at, claimed_at, turn, turn_seq, turn_after, merge_open,
       ${FOLDED_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING attempts`,
    row.key,
    row.workspace,
    row.effectType,
    row.payload,
    row.rateKey,
    dueAt,
    leased?.token ?? null,
    leased?.expiresAt ?? null,
    now,
    row.followUp ? now : null,
    leased ? now : null,
    row.turn?.conversation ?? null,
    row.turn?.seq ?? null,
    row.turn?.after ?? null,
    row.burst ?? null,
    ...foldedValues(row.receipt),
  );
}

/** Attempts a row's story keeps (the latest): the row stays small however long it is retried. */
export const KEPT_ATTEMPTS = 10;

/**
 * The `story` column with the attempt bound at `param` appended (JSON text; NULL: unchanged), its
 * oldest dropped beyond KEPT_ATTEMPTS: a fragment of the UPDATE that settles a row anyway (a
 * retry, a park, a stop), so keeping it writes no row (migrations/0025_effect_stories.sql).
 */
export const appendedStory = (param: string) =>
  `CASE WHEN ${param} IS NULL THEN story ELSE json_insert(
     CASE WHEN json_array_length(coalesce(story, '[]')) >= ${KEPT_ATTEMPTS} THEN json_remove(story, '$[0]') ELSE coalesce(story, '[]') END,
     '$[#]', json(${param})) END`;
