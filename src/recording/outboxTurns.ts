import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxMemory } from "./outboxMemory";
import { PENDING, pendingIn } from "./rowStatus";
import { HELD_TURN_AT, LEAD_UNKNOWN } from "./turnMarks";

/**
 * THE rule of who holds a conversation's thread (migrations/0014_turns.sql, 0015_turn_leads.sql),
 * as a predicate on the outbox row `row` names: a turn holds its thread while it is pending —
 * neither parked (stopped, interrupted, given up) nor completed (done: rowStatus.ts) — and
 * not suspended (a run in `sleep` / `waitForAction` gave its turn back: its `turn` is NULL until it
 * wakes, 0021_released_turns.sql, parts/turns/suspendedTurns.ts). A turn in an attempt, waiting for a retry or
 * cooling down under a rate limit still holds it. Every
 * question about turns — the claim, the enqueue's lease, the alarm, an interrupt — asks it here
 * and nowhere else.
 */
export function holdsThread(row: string): string {
  return `(${pendingIn(row)} AND ${row}.turn IS NOT NULL)`;
}

/**
 * Whether the turn row `row` must wait: an earlier turn of its conversation holds the thread — an
 * indexed one with a lower `turn_seq` (one delivery's rows share theirs), the thread's lead it
 * was recorded after (`turn_after`), or a lead not known yet (LEAD_UNKNOWN). False for a row that
 * is no turn, and for a lead.
 */
export function waitsForTurn(row: string): string {
  return `(${row}.turn IS NOT NULL AND (
      (${row}.turn_seq IS NOT NULL AND EXISTS (SELECT 1 FROM outbox AS earlier
        WHERE earlier.turn = ${row}.turn AND earlier.turn_seq < ${row}.turn_seq AND ${holdsThread("earlier")}))
      OR ${row}.turn_after IS '${LEAD_UNKNOWN}'
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
/** With a full memory of leads, an ingest checks at most this many of the oldest for leads that ended unseen. */
const PURGE_STEP = 32;

/** The SQL of `outbox`'s turns (one turn at a time per conversation): places in line, leads, interrupting. */
export class OutboxTurns {
  /**
   * Each conversation's unindexed lead, as recorded by this instance or found by its walk
   * (outboxMemory.ts): every pending lead is there once the walk is complete (a lead is only made
   * while there is room), entries are verified by key before use, and a lead that ended is dropped.
   */
  private readonly leads: Map<string, string>;
  private readonly threadsToSettle: Set<string>;

  /** `walked`: whether the outbox's walk has read back every lead of the instances before this one (outboxWalk.ts). */
  constructor(
    private readonly sql: MeteredSql,
    private readonly memory: OutboxMemory,
    private readonly walked: () => boolean,
    private readonly leadsKept = LEADS_KEPT,
  ) {
    this.leads = memory.leads;
    this.threadsToSettle = memory.threadsToSettle;
  }

  /**
   * The place of a new delivery's turns in `conversation` (reads only): its lead when no turn there
   * is pending and it is the delivery's only turn (while the shard has room to remember it), else
   * after every turn row still there, indexed.
   */
  place(conversation: string, turns: number): TurnOfRow {
    // Once the walk is complete, a thread with no lead and no indexed turn noted has none pending (indexedThreads.ts).
    if (turns === 1 && this.walked() && !this.leads.has(conversation) && this.memory.indexed.free(conversation) && this.hasRoom())
      return { conversation, seq: null, waits: false };
    const { seq, held } = this.sql.one<{ seq: number | null; held: number | null }>(
      `SELECT max(turn_seq) AS seq, max(${holdsThread("row")}) AS held FROM outbox AS row
        WHERE row.turn = ? AND row.turn_seq IS NOT NULL`,
      conversation,
    );
    // Until the walk is complete, a lead this instance does not know may still be pending.
    const lead = this.leadOf(conversation) ?? (this.walked() ? undefined : LEAD_UNKNOWN);
    if (lead === LEAD_UNKNOWN) this.threadsToSettle.add(conversation);
    if (held !== 1) this.memory.indexed.none(conversation);
    if (held !== 1 && lead === undefined && turns === 1 && this.hasRoom()) return { conversation, seq: null, waits: false };
    return {
      conversation,
      seq: (seq ?? 0) + 1,
      ...(lead === undefined ? {} : { after: lead }),
      waits: held === 1 || lead !== undefined,
    };
  }

  /**
   * The walk is complete: every pending lead is known. Each turn recorded as LEAD_UNKNOWN now names
   * its thread's lead (or none), and a held turn whose thread is free is made due: the turn before
   * it may have ended while no instance could let it go. Returns the conversations whose turns may go.
   */
  walkDone(now: number): string[] {
    for (const conversation of this.threadsToSettle) {
      this.sql.all(
        `UPDATE outbox SET turn_after = ?1 WHERE turn = ?2 AND turn_seq IS NOT NULL AND turn_after = '${LEAD_UNKNOWN}'`,
        this.leadOf(conversation) ?? null,
        conversation,
      );
    }
    const conversations = [...this.threadsToSettle];
    this.threadsToSettle.clear();
    for (const conversation of conversations) this.release(conversation, now);
    return conversations;
  }

  /**
   * Makes a conversation's held turns that may go now due at `now`, for the sweep: the end of the
   * turn before them could not claim them itself. Returns how many.
   */
  release(conversation: string, now: number): number {
    return this.sql.count(
      `UPDATE outbox AS candidate SET next_attempt_at = ?1
        WHERE candidate.turn = ?2 AND candidate.turn_seq IS NOT NULL AND ${holdsThread("candidate")}
          AND candidate.next_attempt_at = ${HELD_TURN_AT} AND candidate.claim_token IS NULL AND NOT ${waitsForTurn("candidate")}
        RETURNING 1`,
      now,
      conversation,
    );
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
    if (this.walked() && this.memory.indexed.free(conversation)) return false;
    const held = this.sql.all(
      `SELECT 1 FROM outbox AS row WHERE row.turn = ? AND row.turn_seq IS NOT NULL AND ${holdsThread("row")} LIMIT 1`,
      conversation,
    );
    if (held.length === 0) this.memory.indexed.none(conversation);
    return held.length > 0;
  }

  /**
   * `interrupt`: stops the turns of `conversation` that hold its thread before `place` — its lead
   * and the indexed ones before it — of `whose` user (inbound/userOf.ts, as the stop button's), or
   * of anyone: in an attempt or not (one in an attempt is aborted by its shard and settles stopped
   * the same way: parts/stops/runStops.ts). Returns the keys stopped, and the interrupting turn's place:
   * it waits for none, or, when another user's turn still holds the thread, queues behind it.
   */
  interrupt(
    place: TurnOfRow,
    reason: string,
    now: number,
    whose: "anyone" | { user: string | undefined },
  ): { stopped: string[]; place: TurnOfRow } {
    const holders = this.sql.all<{ idempotency_key: string; inbound: string | null }>(
      // A delivery's user is read from its run's payload only when it matters (a run's payload is JSON).
      `SELECT idempotency_key, CASE WHEN ?4 THEN payload ->> '$.inbound' END AS inbound FROM outbox AS earlier
        WHERE ${holdsThread("earlier")} AND (earlier.idempotency_key = ?3
          OR (earlier.turn = ?1 AND earlier.turn_seq IS NOT NULL AND earlier.turn_seq < ?2))`,
      place.conversation,
      place.seq ?? 0,
      place.after ?? null,
      whose === "anyone" ? 0 : 1,
    );
    const mine = (inbound: string | null) =>
      whose === "anyone" ||
      (whose.user !== undefined && inbound !== null && userOf(JSON.parse(inbound) as Inbound) === whose.user);
    const keys = holders.filter((row) => mine(row.inbound)).map((row) => row.idempotency_key);
    // No await since the read: the turns it chose still hold the thread, and both commit together.
    const stopped = this.sql
      .all<{ idempotency_key: string }>(
        `UPDATE outbox SET status = 'parked', last_error = ?1, stopped_at = ?2
          WHERE ${PENDING} AND idempotency_key IN (SELECT value FROM json_each(?3)) RETURNING idempotency_key`,
        reason,
        now,
        JSON.stringify(keys),
      )
      .map((row) => row.idempotency_key);
    this.memory.counts.moved(stopped, "pending", "stopped");
    // A lead not known yet (the instance's walk goes on) cannot be interrupted: the turn waits for it
    // instead; and another user's turn left holding the thread is waited for too.
    if (place.after === LEAD_UNKNOWN || stopped.length < holders.length) return { stopped, place };
    return { stopped, place: { conversation: place.conversation, seq: place.seq, waits: false } };
  }

  /** The conversation's pending lead, as remembered (not verified: a caller reads the row anyway). */
  leadKey(conversation: string): string | undefined {
    return this.leads.get(conversation);
  }

  /** The conversation's pending lead, if any: remembered, and verified by its key. */
  private leadOf(conversation: string): string | undefined {
    const key = this.leads.get(conversation);
    if (key === undefined) return undefined;
    if (this.isPending(key)) return key;
    this.leads.delete(conversation);
    return undefined;
  }

  /**
   * Room for one more lead. When full, the PURGE_STEP oldest are checked for leads no longer pending
   * (parked with no attempt to say so): those are dropped, the rest move to the back of the line,
   * so an ingest reads a few keys, never every lead.
   */
  private hasRoom(): boolean {
    if (this.leads.size < this.leadsKept) return true;
    let checked = 0;
    for (const [conversation, key] of this.leads) {
      if (checked++ >= PURGE_STEP) break;
      this.leads.delete(conversation);
      if (this.isPending(key)) this.leads.set(conversation, key);
    }
    return this.leads.size < this.leadsKept;
  }

  private isPending(key: string): boolean {
    return this.sql.all(`SELECT 1 FROM outbox AS row WHERE row.idempotency_key = ? AND ${holdsThread("row")}`, key).length > 0;
  }
}
