import type { MeteredSql } from "../platform/sql/meteredSql";

/**
 * THE rule of who holds a conversation's thread (migrations/0014_turns.sql, 0015_turn_leads.sql),
 * as a predicate on the outbox row `row` names: a turn holds its thread while it is pending —
 * neither parked (stopped, interrupted, given up) nor completed (a completed row is deleted). A
 * turn in an attempt, waiting for a retry or cooling down under a rate limit still holds it. Every
 * question about turns — the claim, the enqueue's lease, the alarm, an interrupt — asks it here
 * and nowhere else.
 */
export function holdsThread(row: string): string {
  return `${row}.status = 'pending'`;
}

/**
 * Whether the turn row `row` must wait: an earlier turn of its conversation holds the thread — an
 * indexed one with a lower `turn_seq` (one delivery's rows share theirs), or the thread's lead it
 * was recorded after (`turn_after`). False for a row that is no turn, and for a lead.
 */
export function waitsForTurn(row: string): string {
  return `(${row}.turn IS NOT NULL AND (
      (${row}.turn_seq IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS earlier
        WHERE earlier.turn = ${row}.turn AND earlier.turn_seq < ${row}.turn_seq AND ${holdsThread("earlier")}))
      OR (${row}.turn_after IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS lead
        WHERE lead.idempotency_key = ${row}.turn_after AND ${holdsThread("lead")}))))`;
}

/**
 * A turn as enqueued: its conversation and its place there — `seq` null for the thread's lead (a
 * turn recorded while no other was pending: no index row), else its place after the others, and
 * `after` the lead it waits for. `waits`: an earlier turn holds the thread now.
 */
export interface TurnOfRow {
  conversation: string;
  seq: number | null;
  after?: string;
  waits: boolean;
}

/** Leads remembered per shard instance (each pending until its turn ends); past it, a new turn is indexed. */
const LEADS_KEPT = 10_000;
/** A full memory of leads is checked for leads no longer pending at most this often. */
const PURGE_INTERVAL_MS = 60_000;

/** The SQL of `outbox`'s turns (one turn at a time per conversation): places in line, leads, interrupting. */
export class OutboxTurns {
  /**
   * Each conversation's unindexed lead, as recorded by this instance or read back once: every
   * pending lead is here (a lead is only made while there is room), entries are verified by key
   * before use, and a lead that ended is dropped.
   */
  private readonly leads = new Map<string, string>();
  /** Whether the leads of before this instance were read back. */
  private leadsRead = false;
  private purgedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sql: MeteredSql,
    private readonly leadsKept = LEADS_KEPT,
  ) {}

  /**
   * The place of a new delivery's turns in `conversation` (reads only): its lead when no turn there
   * is pending and it is the delivery's only turn (while the shard has room to remember it), else
   * after every turn row still there, indexed.
   */
  place(conversation: string, turns: number, now = Date.now()): TurnOfRow {
    const { seq, held } = this.sql.one<{ seq: number | null; held: number | null }>(
      `SELECT max(turn_seq) AS seq, max(${holdsThread("row")}) AS held FROM outbox AS row
        WHERE row.turn = ? AND row.turn_seq IS NOT NULL`,
      conversation,
    );
    const lead = this.leadOf(conversation);
    if (held !== 1 && lead === undefined && turns === 1 && this.hasRoom(now)) return { conversation, seq: null, waits: false };
    return {
      conversation,
      seq: (seq ?? 0) + 1,
      ...(lead === undefined ? {} : { after: lead }),
      waits: held === 1 || lead !== undefined,
    };
  }

  /** A lead was enqueued (in its ingest's transaction: a rollback leaves a key that verifies as gone). */
  recordedLead(conversation: string, key: string): void {
    this.leads.set(conversation, key);
  }

  /** Leads this instance remembers now (stats and tests): the pending ones, at most LEADS_KEPT. */
  get leadsRemembered(): number {
    return this.leads.size;
  }

  /** A turn of `conversation` ended (delivered or parked): if it was the thread's lead, it is forgotten. */
  ended(conversation: string, key: string): void {
    if (this.leads.get(conversation) === key) this.leads.delete(conversation);
  }

  /** Whether a turn of `conversation` waits for its thread (an index read, no write: a claim would cost a commit). */
  pending(conversation: string): boolean {
    return (
      this.sql.all(
        `SELECT 1 FROM outbox AS row WHERE row.turn = ? AND row.turn_seq IS NOT NULL AND ${holdsThread("row")} LIMIT 1`,
        conversation,
      ).length > 0
    );
  }

  /**
   * `interrupt`: parks the turns of `conversation` that hold its thread before `place` — its lead
   * and the indexed ones before it — in an attempt or not (one in an attempt is aborted by its shard
   * and settles parked the same way: delivery/stops.ts), born followed up as a stopped run is.
   * Returns the keys parked, and the interrupting turn's place, which then waits for none.
   */
  interrupt(place: TurnOfRow, reason: string, now: number): { parked: string[]; place: TurnOfRow } {
    const parked = this.sql
      .all<{ idempotency_key: string }>(
        `UPDATE outbox AS earlier SET status = 'parked', last_error = ?1, parked_at = ?2, followed_up_at = coalesce(followed_up_at, ?2)
          WHERE ${holdsThread("earlier")} AND (earlier.idempotency_key = ?5
            OR (earlier.turn = ?3 AND earlier.turn_seq IS NOT NULL AND earlier.turn_seq < ?4))
          RETURNING idempotency_key`,
        reason,
        now,
        place.conversation,
        place.seq ?? 0,
        place.after ?? null,
      )
      .map((row) => row.idempotency_key);
    return { parked, place: { conversation: place.conversation, seq: place.seq, waits: false } };
  }

  /** The conversation's pending lead, if any: remembered, and verified by its key. */
  private leadOf(conversation: string): string | undefined {
    if (!this.leadsRead) this.readLeads();
    const key = this.leads.get(conversation);
    if (key === undefined) return undefined;
    if (this.isPending(key)) return key;
    this.leads.delete(conversation);
    return undefined;
  }

  /** Room for one more lead; when full, leads no longer pending (parked with no attempt to say so) are dropped, once a minute at most. */
  private hasRoom(now: number): boolean {
    if (this.leads.size < this.leadsKept) return true;
    if (now - this.purgedAt < PURGE_INTERVAL_MS) return false;
    this.purgedAt = now;
    for (const [conversation, key] of [...this.leads]) if (!this.isPending(key)) this.leads.delete(conversation);
    return this.leads.size < this.leadsKept;
  }

  private isPending(key: string): boolean {
    return this.sql.all("SELECT 1 FROM outbox WHERE idempotency_key = ? AND status = 'pending'", key).length > 0;
  }

  /**
   * A new instance reads back the pending leads once (one scan of the outbox, which holds
   * undelivered rows only). There are at most LEADS_KEPT: no instance makes a lead without room.
   */
  private readLeads(): void {
    this.leadsRead = true;
    for (const { turn, key } of this.sql.all<{ turn: string; key: string }>(
      "SELECT turn, idempotency_key AS key FROM outbox WHERE turn IS NOT NULL AND turn_seq IS NULL AND status = 'pending'",
    ))
      this.leads.set(turn, key);
  }
}
