import type { MeteredSql } from "../../platform/sql/meteredSql";
import type { OutboxMemory } from "../../recording/outboxMemory";
import { PENDING } from "../../recording/rowStatus";
import { HELD_TURN_AT } from "../../recording/turnMarks";

/** What a woken run's new turn needs of the thread's turns (outboxTurns.ts). */
export interface TurnPlaces {
  place(conversation: string, turns: number): { seq: number | null; after?: string; waits: boolean };
  recordedLead(conversation: string, key: string): void;
}

/**
 * Turns no one can hold (migrations/0021_released_turns.sql): a run suspended in `sleep` or
 * `waitForAction` gives its thread's turn back, so the next turn there begins at once; when it
 * wakes (its timer, or a click) it takes a new turn, placed as a new message's would be — the
 * newest of its thread, after the turn running then and every turn queued before it woke. Both are
 * rows' state, fenced by the attempt's lease: an instance's death or a new instance's walk changes nothing.
 */
export class SuspendedTurns {
  constructor(
    private readonly sql: MeteredSql,
    private readonly memory: OutboxMemory,
    private readonly turns: TurnPlaces,
  ) {}

  /**
   * The attempt `token` holds on `key` suspended its run: its turn is given back (written with its
   * postponement, in the same synchronous turn). Returns the conversation released, or null (no turn, or fenced out).
   */
  release(key: string, token: string): string | null {
    const [row] = this.sql.all<{ conversation: string }>(
      `UPDATE outbox SET turn_released = turn, turn = NULL, turn_seq = NULL, turn_after = NULL
        WHERE idempotency_key = ? AND claim_token = ? AND ${PENDING} AND turn IS NOT NULL
        RETURNING turn_released AS conversation`,
      key,
      token,
    );
    return row?.conversation ?? null;
  }

  /**
   * The woken run `key`, leased to `token`, takes its new turn in `conversation`. When a turn holds
   * the thread now it is written held (unleased, HELD_TURN_AT: the end of the turn before it lets it
   * go, outboxTurns.ts) and not run now. Returns whether it waits, or null when fenced out.
   */
  reenter(key: string, token: string, conversation: string): { waits: boolean } | null {
    const place = this.turns.place(conversation, 1);
    const [row] = this.sql.all(
      `UPDATE outbox SET turn = ?1, turn_seq = ?2, turn_after = ?3, turn_released = NULL,
          next_attempt_at = CASE WHEN ?4 THEN ${HELD_TURN_AT} ELSE next_attempt_at END,
          claim_token = CASE WHEN ?4 THEN NULL ELSE claim_token END,
          claim_expires_at = CASE WHEN ?4 THEN NULL ELSE claim_expires_at END
        WHERE idempotency_key = ?5 AND claim_token = ?6 AND ${PENDING} AND turn_released = ?1
        RETURNING 1`,
      conversation,
      place.seq,
      place.after ?? null,
      place.waits ? 1 : 0,
      key,
      token,
    );
    if (row === undefined) return null;
    // A thread's lead has no index row: its shard remembers it (outboxTurns.ts).
    if (place.seq === null) this.turns.recordedLead(conversation, key);
    else this.memory.indexed.noted(conversation);
    if (place.waits) this.memory.leases.forgotten(key);
    return { waits: place.waits };
  }
}
