import type { MeteredSql } from "../platform/sql/meteredSql";
import type { OutboxStatus } from "../rpc/shard";
import { STATUS_OF } from "./rowStatus";
import { HELD_TURN_AT } from "./turnMarks";

/** Rows read per step of the walk: a bounded key range, a few milliseconds at most. */
export const WALK_STEP_ROWS = 256;

const WALKED = `idempotency_key AS key, ${STATUS_OF("outbox")} AS status, claim_token, claim_expires_at, turn, turn_seq, turn_after,
  claim_token IS NULL AND next_attempt_at = ${HELD_TURN_AT} AS held`;

/** One pending row as the walk reads it (the columns before `payload` and after, never `payload` itself). */
export interface WalkedRow {
  key: string;
  claimToken: string | null;
  claimExpiresAt: number | null;
  turn: string | null;
  turnSeq: number | null;
  turnAfter: string | null;
  /** A turn held for its thread, not leased (outboxTurns.ts HELD_TURN_AT). */
  held: boolean;
}

/** What the walk tells the outbox's memory about each row (`pending` ones in full, the others' status). */
export interface WalkFindings {
  row(row: WalkedRow): void;
  ended(status: Exclude<OutboxStatus, "pending">): void;
}

/**
 * What a shard instance must learn of the outbox it inherits once, without any statement reading
 * more than a key range: the leases of the instance before it (their rows are in no index: a first
 * lease writes none), its threads' unindexed leads (outboxTurns.ts) and its rows by status
 * (outboxCounts.ts), told to the outbox's memory (outboxMemory.ts). The walk reads the outbox
 * in key order, WALK_STEP_ROWS at a time — the current generation's done rows too, which it passes
 * over (rows read, never written; outboxFiling.ts files them away once a generation). Its first step runs at the instance's first use of the
 * outbox, synchronously, so a shard with a small outbox knows everything before its first claim or
 * ingest; the rest continues between requests (`continue`, from the shard's alarm or timers), and
 * until it is `complete` the parts that need the whole picture say so (outboxTurns.ts holds a new
 * turn whose thread's lead may not be known yet).
 */
export class OutboxWalk {
  private after: string | null = null;
  private started = false;
  /** Whether its first step was taken. */
  get begun(): boolean {
    return this.started;
  }
  complete = false;

  constructor(
    private readonly sql: MeteredSql,
    private readonly findings: WalkFindings,
  ) {}

  /** Whether the walk has read `key`'s place in the key order (a row there now was, or will never be, read by it). */
  passed(key: string): boolean {
    return this.complete || (this.after !== null && inKeyOrder(key, this.after) <= 0);
  }

  /** The first step, once per instance. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.step();
  }

  /** Steps until `budgetMs` is spent or the walk is complete; returns whether it is. */
  continue(budgetMs: number, now = () => Date.now()): boolean {
    this.start();
    const until = now() + budgetMs;
    while (!this.complete && now() < until) this.step();
    return this.complete;
  }

  /** One bounded range of keys, in one statement. */
  private step(): void {
    if (this.complete) return;
    const rows = this.sql.all<{
      key: string;
      status: string;
      claim_token: string | null;
      claim_expires_at: number | null;
      turn: string | null;
      turn_seq: number | null;
      turn_after: string | null;
      held: number;
    }>(
      // Two shapes, so each is a range of the primary key (an OR with "no cursor yet" would not be).
      this.after === null
        ? `SELECT ${WALKED} FROM outbox ORDER BY idempotency_key LIMIT ?2`
        : `SELECT ${WALKED} FROM outbox WHERE idempotency_key > ?1 ORDER BY idempotency_key LIMIT ?2`,
      this.after,
      WALK_STEP_ROWS,
    );
    for (const row of rows) {
      // A done row (delivered, kept with its story until its generation is dropped) is nothing to learn.
      if (row.status === "done") continue;
      if (row.status !== "pending") {
        this.findings.ended(row.status as Exclude<OutboxStatus, "pending">);
        continue;
      }
      this.findings.row({
        key: row.key,
        claimToken: row.claim_token,
        claimExpiresAt: row.claim_expires_at,
        turn: row.turn,
        turnSeq: row.turn_seq,
        turnAfter: row.turn_after,
        held: row.held === 1,
      });
    }
    const last = rows.at(-1);
    if (last !== undefined) this.after = last.key;
    if (rows.length < WALK_STEP_ROWS) this.complete = true;
  }
}

/**
 * SQLite's order of TEXT keys (BINARY: UTF-8 bytes, so code points), which JavaScript's `<` (UTF-16
 * code units) gives too except for characters past U+FFFF against U+E000–U+FFFF.
 */
export function inKeyOrder(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}
