import type { Effect } from "../effects/types";
import type { OutboxStatus, ParkedCursor, ParkedRow } from "./api";
import type { MeteredSql } from "./meteredSql";

/** A row as the delivery loop sees it. */
export type ClaimedRow = {
  idempotency_key: string;
  workspace: string;
  payload: string;
  rate_key: string | null;
  attempts: number;
  created_at: number;
  /** The effect itself, for a row its ingest just wrote: the immediate attempt parses nothing back. */
  effect?: Effect;
  /**
   * For a row its ingest just wrote, leased: until this time no step checkpoint can exist on it
   * (no attempt before, and no other claimer before the lease runs out), so none is read.
   */
  noCheckpointsUntil?: number;
};

/** A row as stored (the effect as its JSON only). */
type StoredRow = Omit<ClaimedRow, "effect">;

/** A row to enqueue: its idempotency key, workspace, effect (type and JSON) and rate-limit bucket. */
export interface NewRow {
  key: string;
  workspace: string;
  effectType: string;
  payload: string;
  rateKey: string | null;
  /** The effect `payload` serialises, when the caller has it (handed to the immediate attempt as is). */
  effect?: Effect;
}

/** A lease on freshly enqueued rows, so their first attempt needs no separate claim write. */
export interface Lease {
  token: string;
  expiresAt: number;
}

/** All SQL touching `outbox`. Every write after a claim is fenced by the claim token. */
export class Outbox {
  constructor(private readonly sql: MeteredSql) {}

  /**
   * Records the effects of one delivery, already leased to `lease` for the immediate attempt
   * (or unleased and due at once, for the sweep, when `lease` is null).
   * The idempotency key (dedupe key + effect name) makes a repeated enqueue a no-op.
   * Returns the rows that were new, as the immediate attempt needs them: built from what was
   * written (RETURNING only says which were new), with the effect object itself — no read-back.
   */
  enqueue(rows: readonly NewRow[], now: number, lease: Lease | null): ClaimedRow[] {
    return rows.flatMap((row) =>
      this.sql
        .all<{ attempts: number }>(
          `INSERT INTO outbox (idempotency_key, workspace, effect, payload, rate_key, next_attempt_at, claim_token, claim_expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING attempts`,
          row.key,
          row.workspace,
          row.effectType,
          row.payload,
          row.rateKey,
          now,
          lease?.token ?? null,
          lease?.expiresAt ?? null,
          now,
        )
        .map(({ attempts }) => ({
          idempotency_key: row.key,
          workspace: row.workspace,
          payload: row.payload,
          rate_key: row.rateKey,
          attempts,
          created_at: now,
          effect: row.effect,
          noCheckpointsUntil: lease?.expiresAt,
        })),
    );
  }

  /**
   * Leases up to `limit` due rows to `token` in ONE statement, so concurrent claimers get
   * disjoint rows. Rows this token already holds stay eligible and sort first, so a retried
   * claim re-leases the same batch instead of drifting onto a second one. A lease ends only
   * by expiry or by a fenced settle, never in a `finally`.
   */
  claimBatch(token: string, now: number, leaseMs: number, limit: number): ClaimedRow[] {
    this.sql.all(
      `UPDATE outbox SET claim_token = ?1, claim_expires_at = ?2
        WHERE idempotency_key IN (
          SELECT idempotency_key FROM outbox
           WHERE status = 'pending' AND next_attempt_at <= ?3
             AND (claim_token IS NULL OR claim_expires_at <= ?3 OR claim_token = ?1)
           ORDER BY claim_token IS ?1 DESC, next_attempt_at, idempotency_key
           LIMIT ?4)`,
      token,
      now + leaseMs,
      now,
      limit,
    );
    return this.claimedBy(token);
  }

  claimedBy(token: string): ClaimedRow[] {
    return this.sql.all<StoredRow>(
      `SELECT idempotency_key, workspace, payload, rate_key, attempts, created_at FROM outbox
        WHERE claim_token = ? AND status = 'pending' ORDER BY next_attempt_at, idempotency_key`,
      token,
    );
  }

  /** A completed step's result (JSON text) on a run's row, or undefined. */
  stepResult(key: string, name: string): string | undefined {
    const [row] = this.sql.all<{ result: string | null }>(
      "SELECT steps -> ? AS result FROM outbox WHERE idempotency_key = ?",
      `$."${name}"`,
      key,
    );
    return row?.result ?? undefined;
  }

  /**
   * Stores a step's result (JSON text), fenced by the run's lease: only the attempt holding
   * `token` may record. If an overlapping attempt recorded the step first, that result wins
   * and is returned, so both continue from the same checkpoint. Undefined when fenced out.
   */
  recordStep(key: string, name: string, token: string, result: string): string | undefined {
    const path = `$."${name}"`;
    const recorded = this.sql.count(
      `UPDATE outbox SET steps = json_set(steps, ?1, json(?2))
        WHERE idempotency_key = ?3 AND claim_token = ?4 AND steps -> ?1 IS NULL RETURNING 1`,
      path,
      result,
      key,
      token,
    );
    return recorded === 1 ? result : this.stepResult(key, name);
  }

  /** Fenced lease extension for an attempt still running. Returns false once another claimer owns the row. */
  renewLease(key: string, token: string, expiresAt: number): boolean {
    return (
      this.sql.count(
        "UPDATE outbox SET claim_expires_at = ? WHERE idempotency_key = ? AND claim_token = ? AND status = 'pending' RETURNING 1",
        expiresAt,
        key,
        token,
      ) === 1
    );
  }

  /** Fenced completion: deletes the delivered row only if `token` still holds its lease. */
  complete(key: string, token: string): boolean {
    return this.sql.count("DELETE FROM outbox WHERE idempotency_key = ? AND claim_token = ? RETURNING 1", key, token) === 1;
  }

  /** Fenced failure: counts the attempt and schedules the next one. */
  retryLater(key: string, token: string, attempts: number, nextAttemptAt: number, error: string): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, claim_token = NULL, claim_expires_at = NULL
        WHERE idempotency_key = ? AND claim_token = ? RETURNING 1`,
        attempts,
        nextAttemptAt,
        error,
        key,
        token,
      ) === 1
    );
  }

  /** Fenced postponement without an attempt (the row's rate-limit bucket is cooling down). */
  postpone(key: string, token: string, until: number): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET next_attempt_at = ?, claim_token = NULL, claim_expires_at = NULL
        WHERE idempotency_key = ? AND claim_token = ? RETURNING 1`,
        until,
        key,
        token,
      ) === 1
    );
  }

  /** Fenced parking: the row joins the dead-letter queue with its error. */
  park(key: string, token: string, attempts: number, error: string, now: number): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET status = 'parked', attempts = ?, last_error = ?, parked_at = ?, claim_token = NULL, claim_expires_at = NULL
        WHERE idempotency_key = ? AND claim_token = ? RETURNING 1`,
        attempts,
        error,
        now,
        key,
        token,
      ) === 1
    );
  }

  /**
   * Parks a workspace's waiting rows at once with `reason` (its installation is gone): rows not in
   * an attempt now, except `keep`'s kind. A row in an attempt is parked by that attempt, whose
   * credentials lookup now fails the same way. Returns how many.
   */
  parkWorkspace(workspace: string, reason: string, now: number, keep: string): number {
    return this.sql.count(
      `UPDATE outbox SET status = 'parked', last_error = ?1, parked_at = ?2
        WHERE status = 'pending' AND workspace = ?3 AND effect != ?4 AND (claim_expires_at IS NULL OR claim_expires_at <= ?2)
        RETURNING 1`,
      reason,
      now,
      workspace,
      keep,
    );
  }

  /** Puts parked rows — those among `keys`, or all when `keys` is null — back in line with fresh attempts. Returns how many. */
  replay(now: number, keys: readonly string[] | null): number {
    return this.sql.count(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?1, parked_at = NULL
        WHERE status = 'parked' AND (?2 IS NULL OR idempotency_key IN (SELECT value FROM json_each(?2))) RETURNING 1`,
      now,
      keys === null ? null : JSON.stringify(keys),
    );
  }

  /**
   * Parked rows newest first, at or before `before` (parked_at, then key; the fleet list drops the
   * one it already gave, by shard), for paging across shards.
   */
  listParkedBefore(before: ParkedCursor | null, limit: number): ParkedRow[] {
    return this.sql.all<ParkedRow>(
      `SELECT idempotency_key, workspace, effect, attempts, last_error, created_at, parked_at FROM outbox
        WHERE status = 'parked' AND (?1 IS NULL OR parked_at < ?1 OR (parked_at = ?1 AND idempotency_key <= ?2))
        ORDER BY parked_at DESC, idempotency_key DESC LIMIT ?3`,
      before?.parkedAt ?? null,
      before?.key ?? "",
      limit,
    );
  }

  /** Deletes parked rows for good: those among `keys`, or all of them when `keys` is null. Returns how many. */
  discardParked(keys: readonly string[] | null): number {
    return this.sql.count(
      `DELETE FROM outbox WHERE status = 'parked'
        AND (?1 IS NULL OR idempotency_key IN (SELECT value FROM json_each(?1))) RETURNING 1`,
      keys === null ? null : JSON.stringify(keys),
    );
  }

  listParked(limit: number): ParkedRow[] {
    return this.sql.all<ParkedRow>(
      `SELECT idempotency_key, workspace, effect, attempts, last_error, created_at, parked_at FROM outbox
        WHERE status = 'parked' ORDER BY parked_at, idempotency_key LIMIT ?`,
      limit,
    );
  }

  countsByStatus(): Record<OutboxStatus, number> {
    const counts: Record<OutboxStatus, number> = { pending: 0, parked: 0 };
    for (const row of this.sql.all<{ status: OutboxStatus; n: number }>(
      "SELECT status, count(*) AS n FROM outbox GROUP BY status",
    )) {
      counts[row.status] = row.n;
    }
    return counts;
  }

  /** Earliest time a pending row needs attention: when it is due, or when its lease runs out. */
  nextWakeAt(): number | null {
    return this.sql.one<{ at: number | null }>(
      "SELECT min(max(next_attempt_at, coalesce(claim_expires_at, 0))) AS at FROM outbox WHERE status = 'pending'",
    ).at;
  }
}
