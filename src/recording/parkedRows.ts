import type { MeteredSql } from "../platform/sql/meteredSql";
import type { ParkedPosition } from "../rpc/parkedFilter";
import type { OutboxStatus, ParkedCursor, ParkedRow } from "../rpc/shard";
import type { ReceiptKeeper } from "./foldedReceipts";
import type { IndexedThreads } from "./indexedThreads";
import type { OutboxCounts } from "./outboxCounts";
import type { OutboxLeases } from "./outboxLeases";
import { appendedStory, type ClaimedRow, type NewRow } from "./outboxRows";
import { type Checkpoints, NO_CHECKPOINTS, withCheckpoints } from "./outboxSteps";
import type { ParkedFacts } from "./parkedMatch";
import { DEAD_LETTER, PENDING, STATUS_OF } from "./rowStatus";

/** Parked rows are read from their own partial index (migrations/0016_due_rows.sql, 0019_stopped_runs.sql), never by a scan of the backlog. */
const PARKED = `SELECT idempotency_key, workspace, effect, attempts, last_error, created_at, parked_at FROM outbox INDEXED BY outbox_parked
        WHERE ${DEAD_LETTER}`;

/** Which parked rows a list gives: the oldest first, or the newest at or before a cursor first. */
export type ParkedOrder = "oldest first" | { newestBefore: ParkedCursor | null };

/**
 * The SQL of `outbox`'s dead-letter side: parking a claimed row (its follow-ups enqueued through
 * `enqueue`, the outbox's) or a workspace's waiting rows; listing,
 * replaying and discarding parked ones.
 */
export class ParkedRows {
  constructor(
    private readonly sql: MeteredSql,
    private readonly enqueue: (rows: readonly NewRow[], now: number) => ClaimedRow[],
    private readonly leases: OutboxLeases,
    private readonly counts: OutboxCounts,
    private readonly receipts: ReceiptKeeper,
    /** Threads whose indexed turns may be pending: a replayed turn is one (indexedThreads.ts). */
    private readonly indexed: IndexedThreads,
  ) {}

  /**
   * Fenced parking of a claimed row, by the attempt holding `token`: the row joins the dead-letter
   * queue with its error. The first time a row is parked, its `followUps` (planned by the app) are
   * enqueued in the same transaction, due at once and born followed up (they have none of their
   * own); a replayed row parking again plans none.
   * `everyParking`'s rows (closing the streams a run left open) are enqueued at each parking.
   * `postsUncertainSince`, as the outbox's retryLater: a replay looks for the parked attempt's posts.
   * Returns the follow-up rows written, or null when fenced out.
   */
  park(
    key: string,
    token: string,
    attempts: number,
    error: string,
    now: number,
    followUps = (): NewRow[] => [],
    everyParking = (): NewRow[] => [],
    postsUncertainSince: number | null = null,
    /** The attempt's story (JSON), appended to the row's (outboxRows.ts appendedStory). */
    story: string | null = null,
    /** Step results the attempt kept for this write (outboxSteps.ts withCheckpoints): a replay resumes after them. */
    checkpoints: Checkpoints = NO_CHECKPOINTS,
  ): ClaimedRow[] | null {
    return this.sql.transaction(() => {
      // Read and written in one synchronous transaction: no other attempt can park this row in between.
      const [held] = this.sql.all<{ followed_up_at: number | null; status: OutboxStatus }>(
        `SELECT followed_up_at, ${STATUS_OF("outbox")} AS status FROM outbox WHERE idempotency_key = ? AND claim_token = ?`,
        key,
        token,
      );
      if (!held) return null;
      this.leases.forgotten(key);
      if (held.status !== "parked") this.counts.moved([key], held.status, "parked");
      const values = [attempts, error, now, key, postsUncertainSince, story];
      this.sql.all(
        `UPDATE outbox SET status = 'parked', stopped_at = NULL, attempts = ?1, last_error = ?2, parked_at = ?3, claim_token = NULL, claim_expires_at = NULL,
          followed_up_at = coalesce(followed_up_at, ?3), posts_uncertain_since = coalesce(posts_uncertain_since, ?5),
          story = ${appendedStory("?6")}, steps = ${withCheckpoints(checkpoints, values)}
          WHERE idempotency_key = ?4`,
        ...values,
      );
      const first = held.followed_up_at === null ? followUps() : [];
      return this.enqueue(
        [...everyParking(), ...first].map((row) => ({ ...row, followUp: true })),
        now,
      );
    });
  }

  /**
   * Parks a workspace's waiting rows at once with `reason` (its installation is gone): rows not in
   * an attempt now, except `keep`'s kind. A row in an attempt is parked by that attempt, whose
   * credentials lookup now fails the same way. Returns how many.
   */
  parkWorkspace(workspace: string, reason: string, now: number, keep: string): number {
    const keys = this.sql
      .all<{ idempotency_key: string }>(
        `UPDATE outbox SET status = 'parked', last_error = ?1, parked_at = ?2
          WHERE ${PENDING} AND workspace = ?3 AND effect != ?4 AND (claim_expires_at IS NULL OR claim_expires_at <= ?2)
          RETURNING idempotency_key`,
        reason,
        now,
        workspace,
        keep,
      )
      .map((row) => row.idempotency_key);
    this.counts.moved(keys, "pending", "parked");
    return keys.length;
  }

  /**
   * Parked rows, oldest first (a shard's own list), or newest first at or before `newestBefore`
   * (parked_at, then key; the fleet list drops the one it already gave, by shard), for paging
   * across shards.
   */
  list(limit: number, order: ParkedOrder): ParkedRow[] {
    if (order === "oldest first") return this.sql.all<ParkedRow>(`${PARKED} ORDER BY parked_at, idempotency_key LIMIT ?`, limit);
    const before = order.newestBefore;
    return this.sql.all<ParkedRow>(
      `${PARKED} AND (?1 IS NULL OR parked_at < ?1 OR (parked_at = ?1 AND idempotency_key <= ?2))
        ORDER BY parked_at DESC, idempotency_key DESC LIMIT ?3`,
      before?.parkedAt ?? null,
      before?.key ?? "",
      limit,
    );
  }

  /**
   * A filtered operation's batch: at most `limit` parked rows after `after` (or from `since`) and
   * before `until`, oldest first — one range of `outbox_parked`, whose entries carry the key, so
   * the order costs no sort. Bounded by rows read, not matched: a rare match never scans the queue.
   */
  page(since: number, until: number, after: ParkedPosition | null, limit: number): Array<ParkedFacts & ParkedRow> {
    return this.sql.all<ParkedFacts & ParkedRow>(
      `SELECT idempotency_key, workspace, effect, attempts, last_error, created_at, parked_at,
          CASE WHEN effect = 'slack.api' THEN json_extract(payload, '$.method') END AS method
        FROM outbox INDEXED BY outbox_parked
        WHERE ${DEAD_LETTER} AND (parked_at, idempotency_key) > (?1, ?2) AND parked_at < ?3
        ORDER BY parked_at, idempotency_key LIMIT ?4`,
      after?.parkedAt ?? since,
      after?.key ?? "",
      until,
      limit,
    );
  }

  /**
   * Puts parked rows — those among `keys`, or all when `keys` is null — back in line with fresh
   * attempts. Returns how many. A thread's lead replayed gets `turn_seq` 0: indexed, so turns
   * recorded after it find it and wait (migrations/0015_turn_leads.sql).
   */
  replay(now: number, keys: readonly string[] | null): number {
    // A lease left on a row parked in an attempt (a stop's) is taken over here, as a claim takes one
    // over: its posts become uncertain, and the row is back among the waiting rows (outbox_due).
    const replayed = this.sql
      .all<{ idempotency_key: string; turn: string | null }>(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?1, parked_at = NULL,
            turn_seq = CASE WHEN turn IS NULL THEN turn_seq ELSE coalesce(turn_seq, 0) END,
            posts_uncertain_since = CASE WHEN claim_token IS NOT NULL
              THEN coalesce(posts_uncertain_since, claimed_at, created_at) ELSE posts_uncertain_since END,
            claim_token = NULL, claim_expires_at = NULL
          WHERE ${DEAD_LETTER} AND (?2 IS NULL OR idempotency_key IN (SELECT value FROM json_each(?2))) RETURNING idempotency_key, turn`,
        now,
        keys === null ? null : JSON.stringify(keys),
      )
      .map((row) => {
        if (row.turn !== null) this.indexed.noted(row.turn);
        return row.idempotency_key;
      });
    for (const key of replayed) this.leases.forgotten(key);
    this.counts.moved(replayed, "parked", "pending");
    return replayed.length;
  }

  /** Deletes parked rows for good: those among `keys`, or all of them when `keys` is null. Returns how many. */
  discard(keys: readonly string[] | null): number {
    const where = `${DEAD_LETTER} AND (?1 IS NULL OR idempotency_key IN (SELECT value FROM json_each(?1)))`;
    const values = [keys === null ? null : JSON.stringify(keys)];
    this.receipts.keep(where, values); // a discarded row may be inside the receipt window: its receipt stays
    const discarded = this.sql
      .all<{ idempotency_key: string }>(`DELETE FROM outbox WHERE ${where} RETURNING idempotency_key`, ...values)
      .map((row) => row.idempotency_key);
    this.counts.moved(discarded, "parked", null);
    return discarded.length;
  }
}
