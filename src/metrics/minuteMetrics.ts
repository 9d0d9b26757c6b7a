import { emptyHistogram, type Histogram, observe } from "./histogram";

/** What a shard counts per minute (README "Operations console"). */
export interface MetricCounts {
  accepted: number;
  duplicates: number;
  ignored: number;
  delivered: number;
  retried: number;
  parked: number;
  fenceRejections: number;
  rowsWritten: number;
}

/** One minute of one shard, as stored and as the console reads it. */
export interface MinuteRow {
  minute: number;
  counts: MetricCounts;
  /** From the edge receiving a delivery to the shard's commit (the ack waits for it), ms. */
  ackMs: Histogram;
  /** From a delivery's record to its effect delivered, ms. */
  deliveryMs: Histogram;
  /** Pending outbox rows, and when the oldest was recorded (null: none), at the minute's end. */
  depth: number;
  oldestPendingAt: number | null;
}

export const emptyCounts = (): MetricCounts => ({
  accepted: 0,
  duplicates: 0,
  ignored: 0,
  delivered: 0,
  retried: 0,
  parked: 0,
  fenceRejections: 0,
  rowsWritten: 0,
});

export const minuteOf = (at: number) => Math.floor(at / 60_000);

/**
 * A shard's metrics of the current minute, in memory: counting costs no write. `take` hands the
 * minute over once it is over (the shard writes it, one row), so an evicted shard loses at most
 * the minute in progress — metrics, never an event.
 */
export class MinuteMetrics {
  private current?: { minute: number; counts: MetricCounts; ackMs: Histogram; deliveryMs: Histogram };

  private at(now: number) {
    const minute = minuteOf(now);
    if (!this.current || this.current.minute !== minute) {
      // A minute not taken yet stays until `take`; a later one starts only after it is taken.
      if (this.current && this.current.minute < minute) return this.current;
      this.current = { minute, counts: emptyCounts(), ackMs: emptyHistogram(), deliveryMs: emptyHistogram() };
    }
    return this.current;
  }

  count(name: keyof MetricCounts, now: number, n = 1): void {
    this.at(now).counts[name] += n;
  }

  ack(ms: number, now: number): void {
    observe(this.at(now).ackMs, Math.max(0, ms));
  }

  delivered(ms: number, now: number): void {
    const minute = this.at(now);
    minute.counts.delivered++;
    observe(minute.deliveryMs, Math.max(0, ms));
  }

  /** The minute buffered, if it is over at `now` (and it is forgotten here); else undefined. */
  take(now: number): Omit<MinuteRow, "depth" | "oldestPendingAt"> | undefined {
    if (!this.current || this.current.minute >= minuteOf(now)) return undefined;
    const taken = this.current;
    this.current = undefined;
    return taken;
  }

  /** The minute in progress (not yet written), for a live view. */
  peek(): Omit<MinuteRow, "depth" | "oldestPendingAt"> | undefined {
    return this.current;
  }

  /** When the buffered minute is over and should be written, or null. */
  dueAt(): number | null {
    return this.current ? (this.current.minute + 1) * 60_000 : null;
  }
}
