import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxStatus } from "../rpc/shard";
import { type ClaimedRow, enqueuedRow, type Lease, type NewRow, type StoredRow } from "./outboxRows";
import { OutboxSteps } from "./outboxSteps";
import { OutboxTurns, waitsForTurn } from "./outboxTurns";
import { ParkedRows } from "./parkedRows";
import { Waits } from "./waits";

export type { ClaimedRow, Lease, NewRow } from "./outboxRows";

/**
 * All SQL touching `outbox`: enqueue, claim, leases and the fenced settles here (every write after
 * a claim is fenced by the claim token); a run's checkpoints in `steps` (outboxSteps.ts); the
 * dead-letter side, parking included, in `parked` (parkedRows.ts); a run's durable waits for a
 * person in `waits` (waits.ts); one turn at a time per conversation in `turns` (outboxTurns.ts:
 * the rule of who holds a thread).
 */
export class Outbox {
  readonly steps: OutboxSteps;
  readonly parked: ParkedRows;
  readonly waits: Waits;
  readonly turns: OutboxTurns;

  /** `leadsKept`: threads' leads its turns remember (outboxTurns.ts; tests set fewer). */
  constructor(
    private readonly sql: MeteredSql,
    leadsKept?: number,
  ) {
    this.steps = new OutboxSteps(sql);
    this.waits = new Waits(sql);
    this.turns = new OutboxTurns(sql, leadsKept);
    // A parking's follow-ups are enqueued as any row is, in the parking's transaction.
    this.parked = new ParkedRows(sql, (rows, now) => this.enqueue(rows, now, null));
  }

  /**
   * Records the effects of one delivery, already leased to `lease` for the immediate attempt
   * (or unleased and due at once, for the sweep, when `lease` is null).
   * The idempotency key (dedupe key + effect name) makes a repeated enqueue a no-op.
   * Returns the rows that were new, as the immediate attempt needs them: built from what was
   * written (RETURNING only says which were new), with the effect object itself — no read-back.
   * A turn that must wait for an earlier one of its conversation is written unleased (`waitsForTurn`):
   * the immediate attempt must not run it; the end of the turn before it lets it go.
   */
  enqueue(rows: readonly NewRow[], now: number, lease: Lease | null): ClaimedRow[] {
    return rows.flatMap((row) => {
      // Placed in the enqueue's own synchronous turn: nothing can settle the earlier turn in between.
      const waits = row.turn?.waits === true;
      const leased = waits ? null : lease;
      return this.sql
        .all<{ attempts: number }>(
          `INSERT INTO outbox (idempotency_key, workspace, effect, payload, rate_key, next_attempt_at, claim_token, claim_expires_at, created_at, followed_up_at, claimed_at, turn, turn_seq, turn_after)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING attempts`,
          row.key,
          row.workspace,
          row.effectType,
          row.payload,
          row.rateKey,
          now,
          leased?.token ?? null,
          leased?.expiresAt ?? null,
          now,
          row.followUp ? now : null,
          leased ? now : null,
          row.turn?.conversation ?? null,
          row.turn?.seq ?? null,
          row.turn?.after ?? null,
        )
        .map(({ attempts }) => {
          // A thread's lead is remembered by its shard: it has no index row to be found by (outboxTurns.ts).
          if (row.turn && row.turn.seq === null) this.turns.recordedLead(row.turn.conversation, row.key);
          return enqueuedRow(row, attempts, now, leased, waits);
        });
    });
  }

  /**
   * Leases up to `limit` due rows to `token` in ONE statement, so concurrent claimers get
   * disjoint rows. Rows this token already holds stay eligible and sort first, so a retried
   * claim re-leases the same batch instead of drifting onto a second one. A lease ends only
   * by expiry or by a fenced settle, never in a `finally`.
   * Taking over a lease that ran out unsettled marks the row's posts uncertain, from when that
   * lease was taken: its attempt may have posted and died before it could say so (the claim is
   * the write-ahead of every attempt, so this costs no write of its own).
   * A turn waits while an earlier turn of its conversation holds the thread (outboxTurns.ts), in
   * this same statement. `turn`: only that conversation's rows (its next turn, once one ended).
   */
  claimBatch(token: string, now: number, leaseMs: number, limit: number, turn: string | null = null): ClaimedRow[] {
    // A conversation's claim (each time a turn ends) is an index look-up (outbox_turns: its waiting
    // turns are indexed), not a scan of the backlog; RETURNING gives the rows leased.
    const rows = this.sql.all<StoredRow & { next_attempt_at: number }>(
      `UPDATE outbox SET claim_token = ?1, claim_expires_at = ?2, claimed_at = ?3,
          posts_uncertain_since = CASE WHEN claim_token IS NOT NULL AND claim_token <> ?1
            THEN coalesce(posts_uncertain_since, claimed_at, created_at) ELSE posts_uncertain_since END
        WHERE idempotency_key IN (
          SELECT idempotency_key FROM outbox AS candidate
           WHERE status = 'pending' AND next_attempt_at <= ?3
             AND (claim_token IS NULL OR claim_expires_at <= ?3 OR claim_token = ?1)
             ${turn === null ? "" : "AND candidate.turn = ?5 AND candidate.turn_seq IS NOT NULL"} AND NOT ${waitsForTurn("candidate")}
           ORDER BY claim_token IS ?1 DESC, next_attempt_at, idempotency_key
           LIMIT ?4)
        RETURNING ${CLAIMED_COLUMNS}, next_attempt_at`,
      token,
      now + leaseMs,
      now,
      limit,
      ...(turn === null ? [] : [turn]),
    );
    return rows.sort(inClaimOrder).map(({ next_attempt_at: _, ...row }) => row);
  }

  claimedBy(token: string): ClaimedRow[] {
    return this.sql.all<StoredRow>(
      `SELECT ${CLAIMED_COLUMNS} FROM outbox
        WHERE claim_token = ? AND status = 'pending' ORDER BY next_attempt_at, idempotency_key`,
      token,
    );
  }

  /**
   * A streamed reply's checkpoint (JSON text) in `steps`, replaced on each flush, fenced by the run's
   * lease and extending it to `leaseUntil`: a stream may run longer than LEASE_MS. False when fenced out.
   */
  recordStreamCheckpoint(key: string, name: string, token: string, record: string, leaseUntil: number): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET steps = json_set(steps, ?1, json(?2)), claim_expires_at = max(claim_expires_at, ?3)
          WHERE idempotency_key = ?4 AND claim_token = ?5 AND status = 'pending' RETURNING 1`,
        `$."${name}"`,
        record,
        leaseUntil,
        key,
        token,
      ) === 1
    );
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

  /** Whether `token` still holds the row's lease (read only): an attempt asks before it posts. */
  holds(key: string, token: string): boolean {
    return (
      this.sql.all("SELECT 1 FROM outbox WHERE idempotency_key = ? AND claim_token = ? AND status = 'pending'", key, token)
        .length === 1
    );
  }

  /**
   * Fenced failure: counts the attempt and schedules the next one. `postsUncertainSince`: the
   * attempt sent a post it may have made (answered, or its answer lost) and the retry will repeat.
   */
  retryLater(
    key: string,
    token: string,
    attempts: number,
    nextAttemptAt: number,
    error: string,
    postsUncertainSince: number | null = null,
  ): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, claim_token = NULL, claim_expires_at = NULL,
          posts_uncertain_since = coalesce(posts_uncertain_since, ?)
        WHERE idempotency_key = ? AND claim_token = ? RETURNING 1`,
        attempts,
        nextAttemptAt,
        error,
        postsUncertainSince,
        key,
        token,
      ) === 1
    );
  }

  /** Fenced postponement without an attempt (the row's rate key is cooling down, or paced); `postsUncertainSince` as retryLater's. */
  postpone(key: string, token: string, until: number, postsUncertainSince: number | null = null): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET next_attempt_at = ?, claim_token = NULL, claim_expires_at = NULL,
          posts_uncertain_since = coalesce(posts_uncertain_since, ?)
        WHERE idempotency_key = ? AND claim_token = ? RETURNING 1`,
        until,
        postsUncertainSince,
        key,
        token,
      ) === 1
    );
  }

  /** A suspended run whose wait was answered is due now (a row in an attempt is left to its settle: deliverClaimed.ts). */
  wake(key: string, now: number): boolean {
    return (
      this.sql.count(
        `UPDATE outbox SET next_attempt_at = ?1 WHERE idempotency_key = ?2 AND status = 'pending'
          AND claim_token IS NULL AND next_attempt_at > ?1 RETURNING 1`,
        now,
        key,
      ) === 1
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

  /**
   * Earliest time a pending row needs attention: when it is due, or when its lease runs out. A turn
   * waiting for its thread needs none: the end of the turn before it lets it go (or that turn's own
   * lease running out brings the sweep).
   */
  nextWakeAt(): number | null {
    return this.sql.one<{ at: number | null }>(
      `SELECT min(max(next_attempt_at, coalesce(claim_expires_at, 0))) AS at FROM outbox AS candidate
        WHERE status = 'pending' AND NOT ${waitsForTurn("candidate")}`,
    ).at;
  }
}

/** The columns of a row its claimer delivers from. */
const CLAIMED_COLUMNS =
  "idempotency_key, workspace, payload, rate_key, attempts, created_at, posts_uncertain_since, claimed_at, turn";

/** Claimed rows in the order they were due (RETURNING's order is SQLite's, not the subquery's). */
const inClaimOrder = (a: { next_attempt_at: number; idempotency_key: string }, b: typeof a) =>
  a.next_attempt_at - b.next_attempt_at || (a.idempotency_key < b.idempotency_key ? -1 : 1);
