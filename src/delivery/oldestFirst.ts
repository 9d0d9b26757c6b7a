import type { InvocationMeter } from "../platform/invocationMeter";
import type { Outbox } from "../recording/outbox";
import type { ImmediateAttempts } from "./immediateAttempts";

/** Batches the line takes at most in one catch-up: an ingest's turn stays short, and the next ingest takes more. */
export const CATCH_UP_BATCHES = 4;

/**
 * Rows answered in the order they came once a shard is past its capacity (issue 43). When the line
 * of immediate attempts is full, an ingest leaves its rows unleased, for the sweep; before this, the
 * next ingest to find room in the line put its own rows there, so rows left behind waited for the
 * sweep's share of the six connections while every newer row went ahead of them (reply p99 minutes,
 * p50 under a second). Now, once rows were left behind, later ingests leave theirs behind too, and
 * once the line has emptied and attempts are free, the oldest due rows start — one claim a batch,
 * an index range (recording/outboxClaims.ts), as the work of the invocation that found the room.
 * They never wait in line: a claim a batch is all they cost.
 * It is caught up when a claim finds fewer due rows than it asked for.
 */
export class OldestFirst {
  private behind = false;

  constructor(
    private readonly outbox: Pick<Outbox, "claimBatch">,
    private readonly immediate: ImmediateAttempts<InvocationMeter>,
    private readonly lease: { leaseMs: number; batchSize: number },
    /** The shard's alarm, moved earlier: the sweep reclaims rows whose instance died once their lease runs out. */
    private readonly wakeAt: (at: number) => void,
  ) {}

  /** Whether a new row must be left to the sweep: it is anyway (`leftAnyway`), the line is full, or older rows wait there. */
  leavesBehind(leftAnyway: boolean): boolean {
    if (leftAnyway || !this.immediate.takesMore()) this.behind = true;
    return this.behind;
  }

  /** While rows wait behind, the oldest due ones start as attempts are free, up to a batch a claim, as `meter`'s work. */
  catchUp(now: number, meter: InvocationMeter): void {
    const { leaseMs, batchSize } = this.lease;
    // A few batches an invocation; a claim costs a statement, so it waits for a third of a batch of free attempts —
    // not a whole one: a shard keeping up with 40–60 rows in flight would otherwise leave every row to the sweep.
    for (let batch = 0; batch < CATCH_UP_BATCHES && this.behind && !meter.spent && !meter.lean; batch++) {
      const free = this.immediate.freeAttempts();
      if (free < Math.ceil(batchSize / 3)) return;
      const asked = Math.min(free, batchSize);
      // They start at once (the line is empty): their lease is their attempt's, as an ingest's immediate rows' is.
      const token = crypto.randomUUID();
      const rows = this.outbox.claimBatch(token, now, leaseMs, asked);
      if (rows.length < asked) this.behind = false;
      if (rows.length === 0) return;
      this.wakeAt(now + leaseMs);
      // One attempt a row, as an ingest's: a batch as one attempt would run six at a time and hold 25 places until its last.
      for (const row of rows) this.immediate.offer({ token, expiresAt: now + leaseMs }, [row], false, meter);
    }
  }
}
