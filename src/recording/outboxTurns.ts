import type { MeteredSql } from "../platform/sql/meteredSql";

/**
 * THE rule of who holds a conversation's thread (migrations/0014_turns.sql), as a predicate on
 * the outbox row `row` names: a turn holds its thread while it is pending — neither parked
 * (stopped, interrupted, given up) nor completed (a completed row is deleted). A turn in an
 * attempt, waiting for a retry or cooling down under a rate limit still holds it. Every question
 * about turns — the claim, the enqueue's lease, the alarm, an interrupt — asks it here and
 * nowhere else: a kind of row that should let the thread go (a suspended run, say) is one more
 * condition in this one place.
 */
export function holdsThread(row: string): string {
  return `${row}.status = 'pending'`;
}

/**
 * Whether the turn row `row` must wait: an earlier turn of its conversation (a lower `turn_seq`;
 * one delivery's rows share theirs) holds the thread. False for a row that is no turn.
 */
export function waitsForTurn(row: string): string {
  return `(${row}.turn IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS earlier
      WHERE earlier.turn = ${row}.turn AND earlier.turn_seq < ${row}.turn_seq AND ${holdsThread("earlier")}))`;
}

/** A turn as enqueued: its conversation's key and its place there. */
export interface TurnOfRow {
  conversation: string;
  seq: number;
}

/** The SQL of `outbox`'s turns (one turn at a time per conversation): places in line, waiting, interrupting. */
export class OutboxTurns {
  constructor(private readonly sql: MeteredSql) {}

  /** The place of a new delivery's turns in `conversation`: after every turn row still there (a read). */
  next(conversation: string): number {
    return (
      (this.sql.one<{ seq: number | null }>("SELECT max(turn_seq) AS seq FROM outbox WHERE turn = ?", conversation).seq ?? 0) + 1
    );
  }

  /** Whether a turn at `seq` of `conversation` must wait now: an earlier one holds the thread (a read). */
  waits(turn: TurnOfRow): boolean {
    return (
      this.sql.all(
        `SELECT 1 FROM outbox AS earlier WHERE earlier.turn = ? AND earlier.turn_seq < ? AND ${holdsThread("earlier")} LIMIT 1`,
        turn.conversation,
        turn.seq,
      ).length > 0
    );
  }

  /**
   * Whether any turn of `conversation` is still pending (an index read, no write): when a turn
   * ends and none is, there is nothing to claim — and a claim, an UPDATE, would cost a commit.
   */
  pending(conversation: string): boolean {
    return (
      this.sql.all(`SELECT 1 FROM outbox AS row WHERE row.turn = ? AND ${holdsThread("row")} LIMIT 1`, conversation).length > 0
    );
  }

  /**
   * `interrupt`: parks the turns of `conversation` before `seq` that hold its thread, with `reason`,
   * in an attempt or not (one in an attempt is aborted by its shard and settles parked the same
   * way: delivery/stops.ts), born followed up as a stopped run is. Returns the keys parked.
   */
  interrupt(conversation: string, seq: number, reason: string, now: number): string[] {
    return this.sql
      .all<{ idempotency_key: string }>(
        `UPDATE outbox AS earlier SET status = 'parked', last_error = ?1, parked_at = ?2, followed_up_at = coalesce(followed_up_at, ?2)
          WHERE earlier.turn = ?3 AND earlier.turn_seq < ?4 AND ${holdsThread("earlier")}
          RETURNING idempotency_key`,
        reason,
        now,
        conversation,
        seq,
      )
      .map((row) => row.idempotency_key);
  }
}
