import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxLeases } from "./outboxLeases";
import { appendedStory, type StoredRow } from "./outboxRows";
import { waitsForTurn } from "./outboxTurns";
import { PENDING } from "./rowStatus";
import { HELD_TURN_AT, NOT_HELD } from "./turnMarks";

/** The columns of a row its claimer delivers from. */
export const CLAIMED_COLUMNS =
  "idempotency_key, workspace, payload, rate_key, attempts, created_at, posts_uncertain_since, claimed_at, turn, turn_released";

type Returned = StoredRow & { next_attempt_at: number };

/**
 * The claims of `outbox`, each an index range or key look-ups, never a scan of the backlog
 * (migrations/0016_due_rows.sql): rows waiting for an attempt are read from `outbox_due` in the
 * order they are due; rows whose lease ran out are known by key (outboxLeases.ts); a conversation's
 * turns from `outbox_turns`. Taking over a lease that ran out unsettled marks the row's posts
 * uncertain, from when that lease was taken: its attempt may have posted and died before it could
 * say so (the claim is the write-ahead of every attempt, so this costs no write of its own). Rows
 * that were still waiting in line for their attempt are leased to its token all the same, so they
 * are marked too: their posts are looked up before they are made (a read, after a crash only).
 */
export class OutboxClaims {
  constructor(
    private readonly sql: MeteredSql,
    private readonly leases: OutboxLeases,
  ) {}

  /**
   * Leases up to `limit` rows to `token`, in this order: those it already holds (a retried claim
   * re-leases the same batch instead of drifting onto a second one), those whose lease ran out,
   * then those due. All in one synchronous turn, so the statements commit together and concurrent
   * claimers get disjoint rows. `turn`: only that conversation's turns (its next, once one ended).
   */
  claim(token: string, now: number, leaseMs: number, limit: number, turn: string | null): Returned[] {
    const expiresAt = now + leaseMs;
    if (turn !== null) return this.lease(token, expiresAt, now, turnCandidates(turn, limit));
    const keyed = [...new Set([...this.leases.heldBy(token), ...this.leases.expired(now, limit)])].slice(0, limit);
    const byKey = keyed.length === 0 ? [] : this.lease(token, expiresAt, now, keyedCandidates(keyed));
    // Keys that were noted but are no longer leased out (settled, parked or discarded in bulk) are forgotten.
    for (const key of keyed) if (!byKey.some((row) => row.idempotency_key === key)) this.recheck(key);
    const left = limit - byKey.length;
    return left <= 0 ? byKey : [...byKey, ...this.lease(token, expiresAt, now, dueCandidates(left))];
  }

  /** The earliest time a pending row needs attention: the first due row (outbox_due's first entry that may go), or a lease running out. */
  nextWakeAt(): number | null {
    const [due] = this.sql.all<{ at: number }>(
      `SELECT next_attempt_at AS at FROM outbox AS candidate INDEXED BY outbox_due
        WHERE ${PENDING} AND claim_token IS NULL AND ${NOT_HELD} AND NOT ${waitsForTurn("candidate")}
        ORDER BY next_attempt_at LIMIT 1`,
    );
    const lease = this.leases.earliestExpiry();
    if (due === undefined) return lease;
    return lease === null ? due.at : Math.min(due.at, lease);
  }

  /** The rows `token` holds, as this instance noted its leases (key look-ups). */
  claimedBy(token: string): StoredRow[] {
    const keys = this.leases.heldBy(token);
    if (keys.length === 0) return [];
    return this.sql.all<StoredRow>(
      `SELECT ${CLAIMED_COLUMNS} FROM outbox
        WHERE idempotency_key IN (SELECT value FROM json_each(?1)) AND claim_token = ?2 AND ${PENDING}
        ORDER BY next_attempt_at, idempotency_key`,
      JSON.stringify(keys),
      token,
    );
  }

  /**
   * When the waiting row next in line was recorded (the first of `outbox_due`, one index entry): the
   * backlog's age as the console shows it. A row retried with a long backoff may be older still.
   */
  nextInLineSince(): number | null {
    const [row] = this.sql.all<{ created_at: number }>(
      `SELECT created_at FROM outbox INDEXED BY outbox_due
        WHERE ${PENDING} AND claim_token IS NULL AND ${NOT_HELD} ORDER BY next_attempt_at LIMIT 1`,
    );
    return row?.created_at ?? null;
  }

  /** Runs one claim statement over `candidates`' keys; notes each lease taken. */
  private lease(token: string, expiresAt: number, now: number, candidates: Candidates): Returned[] {
    const rows = this.sql.all<Returned>(
      `UPDATE outbox SET claim_token = ?1, claim_expires_at = ?2, claimed_at = ?3,
          posts_uncertain_since = CASE WHEN ${TAKEN_OVER}
            THEN coalesce(posts_uncertain_since, claimed_at, created_at) ELSE posts_uncertain_since END,
          story = CASE WHEN ${TAKEN_OVER} THEN ${appendedStory(LEASE_LOST)} ELSE story END
        WHERE idempotency_key IN (${candidates.sql})
        RETURNING ${CLAIMED_COLUMNS}, next_attempt_at`,
      token,
      expiresAt,
      now,
      ...candidates.bindings,
    );
    for (const row of rows) this.leases.noted(row.idempotency_key, { token, expiresAt });
    return rows.sort(inClaimOrder);
  }

  /** A noted key that was not claimable: noted again as it is now, or forgotten when no lease is out on it. */
  private recheck(key: string): void {
    const [row] = this.sql.all<{ claim_token: string | null; claim_expires_at: number | null }>(
      `SELECT claim_token, claim_expires_at FROM outbox WHERE idempotency_key = ? AND ${PENDING}`,
      key,
    );
    if (row?.claim_token && row.claim_expires_at !== null)
      this.leases.noted(key, { token: row.claim_token, expiresAt: row.claim_expires_at });
    else this.leases.forgotten(key);
  }
}

/** A claim's candidate keys as a subquery, and its bindings from ?4 on (?1 token, ?2 expiry, ?3 now). */
interface Candidates {
  sql: string;
  bindings: unknown[];
}

/** A conversation's turns that may go, from `outbox_turns`. */
function turnCandidates(turn: string, limit: number): Candidates {
  // A held turn (written while its thread was held) is due the moment it may go.
  return {
    sql: `SELECT idempotency_key FROM outbox AS candidate
           WHERE candidate.turn = ?5 AND candidate.turn_seq IS NOT NULL AND ${PENDING}
             AND (next_attempt_at <= ?3 OR next_attempt_at = ${HELD_TURN_AT})
             AND (claim_token IS NULL OR claim_expires_at <= ?3 OR claim_token = ?1)
             AND NOT ${waitsForTurn("candidate")}
           ORDER BY next_attempt_at, idempotency_key LIMIT ?4`,
    bindings: [limit, turn],
  };
}

/** Rows due and waiting for an attempt, from the index of waiting rows, in the order they are due. */
function dueCandidates(limit: number): Candidates {
  return {
    sql: `SELECT idempotency_key FROM outbox AS candidate INDEXED BY outbox_due
           WHERE ${PENDING} AND claim_token IS NULL AND ${NOT_HELD} AND next_attempt_at <= ?3
             AND NOT ${waitsForTurn("candidate")}
           ORDER BY next_attempt_at, idempotency_key LIMIT ?4`,
    bindings: [limit],
  };
}

/** Rows by key whose lease ran out, or that `token` holds. */
function keyedCandidates(keys: readonly string[]): Candidates {
  return {
    sql: `SELECT idempotency_key FROM outbox AS candidate
           WHERE idempotency_key IN (SELECT value FROM json_each(?4)) AND ${PENDING}
             AND (claim_expires_at <= ?3 OR claim_token = ?1) AND NOT ${waitsForTurn("candidate")}`,
    bindings: [JSON.stringify(keys)],
  };
}

/** SQL: the claim takes over another claimer's lease (ran out unsettled), not a free row nor its own. */
const TAKEN_OVER = "claim_token IS NOT NULL AND claim_token <> ?1";

/**
 * The story's entry for an attempt whose lease ran out unsettled (its instance died, or it ran past
 * LEASE_MS): it cannot write it — the fence refuses it — so the claim taking its row over does, in
 * the same statement (old values: its `claimed_at`).
 */
const LEASE_LOST = `json_object('start', claimed_at, 'end', ?3, 'outcome', 'lease_lost',
  'error', 'its lease ran out before it settled: taken over', 'calls', json_array())`;

/** Claimed rows in the order they were due (RETURNING's order is SQLite's, not the subquery's). */
const inClaimOrder = (a: { next_attempt_at: number; idempotency_key: string }, b: typeof a) =>
  a.next_attempt_at - b.next_attempt_at || (a.idempotency_key < b.idempotency_key ? -1 : 1);
