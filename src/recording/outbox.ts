import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxStatus } from "../rpc/shard";
import { completeRow } from "./doneRows";
import { ReceiptKeeper } from "./foldedReceipts";
import { OutboxClaims } from "./outboxClaims";
import { OutboxMemory } from "./outboxMemory";
import { appendedStory, type ClaimedRow, enqueuedRow, insertRow, type Lease, type NewRow } from "./outboxRows";
import { type Checkpoints, NO_CHECKPOINTS, OutboxSteps, withCheckpoints } from "./outboxSteps";
import { OutboxTurns } from "./outboxTurns";
import { ParkedRows } from "./parkedRows";
import { PENDING } from "./rowStatus";
import { StoppedRows } from "./stoppedRows";
import { HELD_TURN_AT } from "./turnMarks";

export type { ClaimedRow, Lease, NewRow } from "./outboxRows";

/**
 * All SQL touching `outbox`: enqueue, claim, leases and the fenced settles here (every write after
 * a claim is fenced by the claim token); a run's checkpoints in `steps` (outboxSteps.ts); the
 * dead letters in `parked` (parkedRows.ts), stopped runs apart in `stopped` (stoppedRows.ts); one
 * turn at a time per conversation in `turns` (outboxTurns.ts: who holds a thread). Claims and wake-ups read index ranges and keys only (outboxClaims.ts); what
 * an instance inherits it learns by a bounded walk (outboxWalk.ts).
 */
export class Outbox {
  readonly steps: OutboxSteps;
  readonly parked: ParkedRows;
  readonly stopped: StoppedRows;
  readonly turns: OutboxTurns;
  /** What this object knows of its outbox without reading it again: leases, counts, leads, the walk (outboxMemory.ts). */
  readonly memory: OutboxMemory;
  /** Told when rows become due that nothing else wakes the shard for (the walk's end); the delivery loop arms the alarm. */
  onDue: (at: number) => void = () => {};
  private readonly claims: OutboxClaims;
  /** Keeps the receipts rows carry before they are deleted (foldedReceipts.ts); the recording sets it. */
  readonly receipts = new ReceiptKeeper();

  /** `leadsKept`: threads' leads its turns remember (outboxTurns.ts; tests set fewer). */
  constructor(
    /** The shard's SQL: the shard's parts keep their own tables beside the outbox (src/parts/). */
    readonly sql: MeteredSql,
    leadsKept?: number,
  ) {
    this.steps = new OutboxSteps(sql);
    this.memory = OutboxMemory.of(sql);
    this.claims = new OutboxClaims(sql, this.memory.leases);
    this.turns = new OutboxTurns(sql, this.memory, () => this.walked(), leadsKept);
    // A parking's (a stop's) follow-ups are enqueued as any row is, in its transaction.
    const enqueue = (rows: readonly NewRow[], now: number) => this.enqueue(rows, now, null);
    this.parked = new ParkedRows(sql, enqueue, this.memory.leases, this.memory.counts, this.receipts, this.memory.indexed);
    this.stopped = new StoppedRows(sql, enqueue, this.memory.leases, this.memory.counts, this.receipts);
  }

  /**
   * Whether this instance has learnt the outbox it inherited (outboxWalk.ts). At its first use the
   * walk takes its first bounded step; if rows are left, the alarm is asked for at once to go on.
   */
  walked(): boolean {
    if (!this.memory.walk.begun) {
      this.memory.walk.start();
      if (!this.memory.walk.complete) this.onDue(Date.now());
    }
    this.walkEnded();
    return this.memory.walk.complete;
  }

  /** The alarm's part of the walk: it goes on for at most `budgetMs` (outboxWalk.ts). */
  walkOn(budgetMs: number): void {
    this.memory.walk.continue(budgetMs);
    this.walkEnded();
  }

  /** Once the walk is complete: turns recorded before every lead was known name theirs, and held turns that may go are made due. */
  private walkEnded(): void {
    if (!this.memory.walk.complete || this.memory.walkSettled) return;
    this.memory.walkSettled = true;
    const now = Date.now();
    if (this.turns.walkDone(now).length > 0) this.onDue(now);
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
    this.walked();
    return rows.flatMap((row) => {
      // Placed in the enqueue's own synchronous turn: nothing can settle the earlier turn in between.
      const waits = row.turn?.waits === true;
      const leased = waits || row.dueAt !== undefined ? null : lease; // due later: the alarm runs it (parts/turns/mergedTurns.ts)
      return insertRow(this.sql, row, now, leased, waits ? HELD_TURN_AT : (row.dueAt ?? now)).map(({ attempts }) => {
        // A thread's lead is remembered by its shard: it has no index row to be found by (outboxTurns.ts).
        if (row.turn && row.turn.seq === null) this.turns.recordedLead(row.turn.conversation, row.key);
        else if (row.turn) this.memory.indexed.noted(row.turn.conversation);
        if (leased) this.memory.leases.noted(row.key, leased);
        this.memory.counts.moved([row.key], null, "pending");
        return enqueuedRow(row, attempts, now, leased, waits);
      });
    });
  }

  /**
   * Leases up to `limit` rows to `token`: those it holds, those whose lease ran out, then those due
   * (outboxClaims.ts). A lease ends only by expiry or by a fenced settle, never in a `finally`.
   * A turn waits while an earlier turn of its conversation holds the thread (outboxTurns.ts), in
   * the claim's own statements. `turn`: only that conversation's rows (its next turn, once one ended).
   */
  claimBatch(token: string, now: number, leaseMs: number, limit: number, turn: string | null = null): ClaimedRow[] {
    this.walked();
    return this.claims.claim(token, now, leaseMs, limit, turn).map(({ next_attempt_at: _, ...row }) => row);
  }

  /** The rows `token` holds, as this instance noted its leases (key look-ups). */
  claimedBy(token: string): ClaimedRow[] {
    return this.claims.claimedBy(token);
  }

  /**
   * A streamed reply's checkpoint (JSON text) in `steps`, replaced on each flush, fenced by the run's
   * lease and extending it to `leaseUntil`: a stream may run longer than LEASE_MS. False when fenced out.
   */
  recordStreamCheckpoint(key: string, name: string, token: string, record: string, leaseUntil: number): boolean {
    const [held] = this.sql.all<{ expires: number }>(
      `UPDATE outbox SET steps = json_set(steps, ?1, json(?2)), claim_expires_at = max(claim_expires_at, ?3)
        WHERE idempotency_key = ?4 AND claim_token = ?5 AND ${PENDING} RETURNING claim_expires_at AS expires`,
      `$."${name}"`,
      record,
      leaseUntil,
      key,
      token,
    );
    if (held) this.memory.leases.noted(key, { token, expiresAt: held.expires });
    return held !== undefined;
  }

  /** Fenced lease extension for an attempt still running, or about to begin after waiting in line. Returns false once another claimer owns the row. */
  renewLease(key: string, token: string, expiresAt: number): boolean {
    const renewed =
      this.sql.count(
        `UPDATE outbox SET claim_expires_at = ? WHERE idempotency_key = ? AND claim_token = ? AND ${PENDING} RETURNING 1`,
        expiresAt,
        key,
        token,
      ) === 1;
    if (renewed) this.memory.leases.noted(key, { token, expiresAt });
    return renewed;
  }

  /** Fenced completion: the delivered row becomes done, kept with `story` (the attempt's), if `token` still holds its lease (doneRows.ts). */
  complete(key: string, token: string, story: string | null = null, now = Date.now(), checkpoints = NO_CHECKPOINTS): boolean {
    const was = completeRow(this.sql, key, token, story, now, checkpoints);
    // A row a stop marked stopped while its attempt ran may still be completed by that attempt.
    if (was !== null) this.settled(key, was, null);
    return was !== null;
  }

  /** Whether `token` still holds the row's lease (read only): an attempt asks before it posts. */
  holds(key: string, token: string): boolean {
    return (
      this.sql.all(`SELECT 1 FROM outbox WHERE idempotency_key = ? AND claim_token = ? AND ${PENDING}`, key, token).length === 1
    );
  }

  /** Fenced failure: counts the attempt, schedules the next; `postsUncertainSince`: the attempt sent a post it may have made (answered, or
   * its answer lost) the retry repeats; `notices` (a run's first failure: failureNotices.ts) enqueued with it, born followed up, unless
   * the row was ever parked; `story` the attempt's, appended; `checkpoints` its kept steps (outboxSteps.ts). Null when fenced out. */
  retryLater(
    key: string,
    token: string,
    attempts: number,
    nextAttemptAt: number,
    error: string,
    postsUncertainSince: number | null = null,
    notices = (): NewRow[] => [],
    story: string | null = null,
    checkpoints: Checkpoints = NO_CHECKPOINTS,
  ): ClaimedRow[] | null {
    const values = [attempts, nextAttemptAt, error, postsUncertainSince, story, key, token];
    return this.sql.transaction(() => {
      const [held] = this.sql.all<{ followed_up_at: number | null }>(
        `UPDATE outbox SET attempts = ?1, next_attempt_at = ?2, last_error = ?3, claim_token = NULL, claim_expires_at = NULL,
          posts_uncertain_since = coalesce(posts_uncertain_since, ?4), story = ${appendedStory("?5")},
          steps = ${withCheckpoints(checkpoints, values)} WHERE idempotency_key = ?6 AND claim_token = ?7 RETURNING followed_up_at`,
        ...values,
      );
      if (!held) return null;
      this.settled(key, "pending", "pending");
      // A row parked once told its user so: its replay's failures tell no one again.
      const told = held.followed_up_at === null ? notices() : [];
      return this.enqueue(
        told.map((row) => ({ ...row, followUp: true })),
        Date.now(),
        null,
      );
    });
  }

  /** Fenced postponement without an attempt (rate key cooling down, paced, a run suspended); the rest as retryLater's. */
  postpone(
    key: string,
    token: string,
    until: number,
    uncertainSince: number | null = null,
    checkpoints = NO_CHECKPOINTS,
  ): boolean {
    const values = [until, uncertainSince, key, token];
    const settled =
      this.sql.count(
        `UPDATE outbox SET next_attempt_at = ?1, claim_token = NULL, claim_expires_at = NULL,
          posts_uncertain_since = coalesce(posts_uncertain_since, ?2), steps = ${withCheckpoints(checkpoints, values)}
        WHERE idempotency_key = ?3 AND claim_token = ?4 RETURNING 1`,
        ...values,
      ) === 1;
    if (settled) this.settled(key, "pending", "pending");
    return settled;
  }

  /** Rows by status, from the counts kept as rows change (outboxCounts.ts): no scan. */
  countsByStatus(): Record<OutboxStatus, number> {
    this.walked();
    return this.memory.counts.byStatus;
  }

  /** When the waiting row next in line was recorded: the backlog's age as the console shows it (outboxClaims.ts). */
  nextInLineSince = (): number | null => this.claims.nextInLineSince();

  /** When a pending row needs attention: due, or its lease running out (outboxClaims.ts); now while the walk goes on. */
  nextWakeAt = (): number | null => (this.walked() ? this.claims.nextWakeAt() : Date.now());

  /** A settle of a row this instance leased: its lease is forgotten, its status counted. */
  private settled(key: string, from: OutboxStatus, to: OutboxStatus | null): void {
    this.memory.leases.forgotten(key);
    if (from !== to) this.memory.counts.moved([key], from, to);
  }
}
