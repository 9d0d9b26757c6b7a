import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxStatus } from "../rpc/shard";
import type { ReceiptKeeper } from "./foldedReceipts";
import type { OutboxCounts } from "./outboxCounts";
import type { OutboxLeases } from "./outboxLeases";
import { appendedStory, type ClaimedRow, type NewRow } from "./outboxRows";
import { type Checkpoints, NO_CHECKPOINTS, withCheckpoints } from "./outboxSteps";
import { PENDING, STATUS_OF, STOPPED } from "./rowStatus";

/** A stopped run is kept this long (the console counts it, an operator can read it), then pruned. */
export const STOPPED_RETENTION_MS = 24 * 3_600_000;
/** Stopped runs pruned per alarm at most: the rest at the next. */
const PRUNE_BATCH = 500;
/** The alarm prunes stopped runs at most this often, unless the last prune left some. */
const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * The SQL of `outbox`'s stopped runs (migrations/0019_stopped_runs.sql): runs their user stopped
 * (the stop button) or a newer message interrupted. A stop is an outcome, not a failure: a
 * stopped row is outside the waiting rows (`outbox_due`) and the dead letters (`outbox_parked`) —
 * never claimed, listed, alerted on or replayed — and is pruned STOPPED_RETENTION_MS later.
 */
export class StoppedRows {
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sql: MeteredSql,
    private readonly enqueue: (rows: readonly NewRow[], now: number) => ClaimedRow[],
    private readonly leases: OutboxLeases,
    private readonly counts: OutboxCounts,
    private readonly receipts: ReceiptKeeper,
  ) {}

  /**
   * Fenced: the attempt holding `token` ends its row as stopped, and enqueues `closes` (the
   * messages the run left streaming: delivery/parkFollowUps.ts) in the same transaction. A row its
   * stop marked stopped while this attempt ran is counted stopped already. Returns the rows
   * enqueued, or null when fenced out.
   */
  stop(
    key: string,
    token: string,
    attempts: number,
    reason: string,
    now: number,
    closes: () => NewRow[],
    postsUncertainSince: number | null,
    /** The attempt's story (JSON), appended to the row's (outboxRows.ts appendedStory). */
    story: string | null = null,
    /** Step results the attempt kept for this write (outboxSteps.ts withCheckpoints). */
    checkpoints: Checkpoints = NO_CHECKPOINTS,
  ): ClaimedRow[] | null {
    return this.sql.transaction(() => {
      const [held] = this.sql.all<{ status: OutboxStatus }>(
        `SELECT ${STATUS_OF("outbox")} AS status FROM outbox WHERE idempotency_key = ? AND claim_token = ?`,
        key,
        token,
      );
      if (!held) return null;
      this.leases.forgotten(key);
      if (held.status !== "stopped") this.counts.moved([key], held.status, "stopped");
      const values = [attempts, reason, now, key, postsUncertainSince, story];
      this.sql.all(
        `UPDATE outbox SET status = 'parked', attempts = ?1, last_error = ?2, stopped_at = coalesce(stopped_at, ?3),
          claim_token = NULL, claim_expires_at = NULL, posts_uncertain_since = coalesce(posts_uncertain_since, ?5),
          story = ${appendedStory("?6")}, steps = ${withCheckpoints(checkpoints, values)}
          WHERE idempotency_key = ?4`,
        ...values,
      );
      return this.enqueue(
        closes().map((row) => ({ ...row, followUp: true })),
        now,
      );
    });
  }

  /**
   * Stops the waiting runs of one conversation (its key, as recorded on the run's delivery) that
   * reply to `user` (the delivery's user, inbound/userOf.ts) with `reason`, except those of the
   * delivery `except` (the stop's own): in an attempt or not — one in an attempt is aborted by its
   * shard and settles stopped the same way. Returns the keys stopped.
   * Read by key and index, never by a scan of the backlog: the conversation's indexed turns
   * (`outbox_turns`), its suspended runs (`outbox_released_turns`), and `candidates` — its lead, the runs in an attempt, the rows leased out
   * (parts/stops/runStops.ts). A run that is no turn and waits unleased (a retry) is met when it begins.
   */
  stopConversationRuns(
    conversation: string,
    user: string,
    except: string,
    reason: string,
    now: number,
    candidates: readonly string[],
  ): string[] {
    const runs = this.sql.all<{ idempotency_key: string; inbound: string }>(
      `SELECT idempotency_key, payload ->> '$.inbound' AS inbound FROM outbox
        WHERE (idempotency_key IN (SELECT value FROM json_each(?3))
            OR idempotency_key IN (SELECT idempotency_key FROM outbox AS turn WHERE turn.turn = ?1 AND turn.turn_seq IS NOT NULL)
            OR idempotency_key IN (SELECT idempotency_key FROM outbox WHERE turn_released = ?1))
          AND ${PENDING} AND effect = 'run' AND payload ->> '$.inbound.conversation.key' = ?1
          AND payload ->> '$.inbound.dedupeKey' IS NOT ?2`,
      conversation,
      except,
      JSON.stringify(candidates),
    );
    const keys = runs.filter((run) => userOf(JSON.parse(run.inbound) as Inbound) === user).map((run) => run.idempotency_key);
    if (keys.length === 0) return [];
    // No await since the read: the rows it chose are still waiting, and both commit together.
    const stopped = this.sql
      .all<{ idempotency_key: string }>(
        `UPDATE outbox SET status = 'parked', last_error = ?1, stopped_at = ?2
          WHERE ${PENDING} AND idempotency_key IN (SELECT value FROM json_each(?3))
          RETURNING idempotency_key`,
        reason,
        now,
        JSON.stringify(keys),
      )
      .map((row) => row.idempotency_key);
    this.counts.moved(stopped, "pending", "stopped");
    return stopped;
  }

  /**
   * The alarm's part: stopped runs older than STOPPED_RETENTION_MS go (by their index), PRUNE_BATCH
   * at a time, once an hour at most. Returns whether a full batch went (more may be left: the
   * caller asks for an alarm soon, which prunes again).
   */
  prune(now: number): boolean {
    if (now - this.prunedAt < PRUNE_INTERVAL_MS) return false;
    const where = `idempotency_key IN (SELECT idempotency_key FROM outbox INDEXED BY outbox_stopped
          WHERE ${STOPPED} AND stopped_at < ?1 LIMIT ?2)`;
    const values = [now - STOPPED_RETENTION_MS, PRUNE_BATCH];
    this.receipts.keep(where, values); // a run stopped a day ago may still be inside the receipt window
    const pruned = this.sql
      .all<{ idempotency_key: string }>(`DELETE FROM outbox WHERE ${where} RETURNING idempotency_key`, ...values)
      .map((row) => row.idempotency_key);
    this.counts.moved(pruned, "stopped", null);
    const more = pruned.length === PRUNE_BATCH;
    // A full batch: the next alarm goes on at once; else not before the hour is over.
    this.prunedAt = more ? Number.NEGATIVE_INFINITY : now;
    return more;
  }
}
