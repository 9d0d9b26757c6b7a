import { describeError, log } from "../platform/log";
import type { ClaimedRow, Lease, Outbox } from "../recording/outbox";

export interface ImmediateLimits {
  /** Rows in immediate attempts at once; above it, new leased rows wait their turn here. */
  maxInFlight: number;
  /** Rows waiting here at most; beyond it, ingests write their rows unleased, for the sweep. */
  maxWaiting: number;
  /**
   * A waiting row starts with at least this much of its lease left, renewing it first if less
   * is. Its attempt renews the lease within half a lease after it starts, so this is half a lease plus
   * a call's timeout.
   */
  minLeaseLeftMs: number;
}

/** Renews the lease on rows that waited (fenced by its token); returns the rows still held, and until when. */
export type RenewLease = (lease: Lease, rows: readonly ClaimedRow[]) => { expiresAt: number; rows: ClaimedRow[] };

/** RenewLease over `outbox`'s fenced renewals; the shard's alarm is moved up to the new expiry (`wakeAt`). */
export function renewingIn(outbox: Pick<Outbox, "renewLease">, leaseMs: number, wakeAt: (at: number) => void): RenewLease {
  return (lease, rows) => {
    const expiresAt = Date.now() + leaseMs;
    const held = rows.filter((row) => outbox.renewLease(row.idempotency_key, lease.token, expiresAt));
    if (held.length > 0) wakeAt(expiresAt);
    return { expiresAt, rows: held };
  };
}

/**
 * The invocation whose work an attempt is, by its meter (platform/invocationMeter.ts): an attempt
 * that ends lets rows in line go as the same invocation's work, while its meter is not spent.
 */
export type Invocation = { readonly spent: boolean } | undefined;

interface Waiting {
  lease: Lease;
  rows: readonly ClaimedRow[];
}

/**
 * A shard's immediate attempts: the rows its ingests just wrote, leased as they were written,
 * delivered at once — at most `maxInFlight` rows at a time, so acks do not queue behind
 * deliveries under load. Rows over that wait here in order, still leased — to the token their
 * attempt uses, so beginning it writes nothing — and start as earlier attempts finish: their first
 * attempt costs no claim (a written row) from the sweep. A take-over after a crash cannot tell
 * such a row from an attempt that began, so it looks its posts up first (docs/reference/delivery.md
 * "Uncertain posts"): history reads (paced, one a conversation) after a crash only, against a row
 * written per waiting row on every busy minute. A row that
 * waited so long that its lease would not cover an attempt renews it as it starts (one written
 * row, as the sweep's claim would be), unless the sweep has taken it meanwhile; rows lost with
 * the instance are the sweep's once their lease runs out (the alarm is armed for that).
 */
export class ImmediateAttempts<I extends Invocation = Invocation> {
  private inFlight = 0;
  private waitingRows = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly deliver: (token: string, rows: readonly ClaimedRow[], invocation?: I) => Promise<void>,
    private readonly renew: RenewLease,
    private readonly limits: ImmediateLimits,
    private readonly clock: () => number = Date.now,
    /** Rows wait in line with room for them: the invocation that would let them go has spent its subrequests. */
    private readonly stalled: () => void = () => {},
  ) {}

  /** Whether rows offered now would start at once (else they wait in line, leased all the same). */
  startsNow(): boolean {
    return this.inFlight < this.limits.maxInFlight && this.waiting.length === 0;
  }

  /** Whether a new ingest should lease its rows (to start now or wait here), or leave them to the sweep. */
  takesMore(): boolean {
    return this.inFlight < this.limits.maxInFlight || this.waitingRows < this.limits.maxWaiting;
  }

  /**
   * Rows just written under `lease`: started now if there is room (or if `now` says someone is
   * waiting for their outcome, as a relayed command's ack is), else in line behind the others.
   */
  offer(lease: Lease, rows: readonly ClaimedRow[], now = false, invocation?: I): void {
    // Rows that waited in line go first (an ended attempt's invocation may have stopped letting them go), as this one's work.
    this.next(invocation);
    if (now || this.startsNow()) this.begin(lease, rows, invocation);
    else {
      this.waiting.push({ lease, rows });
      this.waitingRows += rows.length;
    }
  }

  /** An invocation with no rows of its own (an alarm) lets rows in line go, as its work. */
  resume(invocation?: I): void {
    this.next(invocation);
  }

  /** Rows that would start at once: none while rows wait in line. */
  freeAttempts(): number {
    return this.waiting.length > 0 ? 0 : Math.max(0, this.limits.maxInFlight - this.inFlight);
  }

  /** Rows in attempts now, and rows waiting for one (for tests and stats). */
  counts(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waitingRows };
  }

  private start(lease: Lease, rows: readonly ClaimedRow[], invocation?: I): void {
    this.inFlight += rows.length;
    void this.deliver(lease.token, rows, invocation).finally(() => {
      this.inFlight -= rows.length;
      // Started by this attempt's end: the runtime may count them as its invocation's work, so they count on its meter.
      this.next(invocation);
    });
  }

  /** Starts waiting rows while there is room, as `invocation`'s work while it has subrequests left. */
  private next(invocation?: I): void {
    while (this.inFlight < this.limits.maxInFlight && this.waiting.length > 0) {
      if (invocation?.spent) {
        this.stalled();
        return;
      }
      const { lease, rows } = this.waiting.shift() as Waiting;
      this.waitingRows -= rows.length;
      this.begin(lease, rows, invocation);
    }
  }

  /** Starts an attempt under its rows' lease as written, first renewing it if it is short by now (fenced: the sweep may own them). */
  private begin(lease: Lease, rows: readonly ClaimedRow[], invocation?: I): void {
    if (lease.expiresAt - this.clock() >= this.limits.minLeaseLeftMs) {
      this.start(lease, rows, invocation);
      return;
    }
    let renewed: ReturnType<RenewLease>;
    try {
      renewed = this.renew(lease, rows);
    } catch (error) {
      // Still leased: the sweep delivers them once the lease runs out. The line goes on.
      log("warn", "lease of waiting rows not renewed; left to the sweep", { rows: rows.length, error: describeError(error) });
      return;
    }
    if (renewed.rows.length > 0) this.start({ token: lease.token, expiresAt: renewed.expiresAt }, renewed.rows, invocation);
  }
}
