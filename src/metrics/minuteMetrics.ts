import { minuteOf } from "../platform/minutes";
import { emptyHistogram, type Histogram, observe } from "./histogram";

/** What a shard counts per minute (docs/guides/operations.md "Metrics"). */
export interface MetricCounts {
  accepted: number;
  duplicates: number;
  ignored: number;
  delivered: number;
  retried: number;
  parked: number;
  /** Runs their user stopped or a newer message interrupted: outcomes, counted apart from failures (absent from minutes written before). */
  stopped: number;
  /** Turns refused by their budgets (`limits`): not run, their users told (absent from minutes written before). */
  turnsRefused: number;
  /** Ingests refused for waiting too long in front of the shard (OVERLOAD_WAIT_MS): nothing written, Slack retries (absent from minutes written before). */
  overloaded: number;
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
  /** The shard's SQLite size in bytes when the minute was written (absent: a minute of before migration 0017, or not written yet). */
  databaseSize?: number | null;
}

export const emptyCounts = (): MetricCounts => ({
  accepted: 0,
  duplicates: 0,
  ignored: 0,
  delivered: 0,
  retried: 0,
  parked: 0,
  stopped: 0,
  turnsRefused: 0,
  overloaded: 0,
  fenceRejections: 0,
  rowsWritten: 0,
});

type Minute = Omit<MinuteRow, "depth" | "oldestPendingAt">;

/** Finished minutes kept for the alarm to write; beyond it (an alarm that has not run for hours) the oldest go. */
export const MAX_UNWRITTEN_MINUTES = 180;

/**
 * A shard's metrics per minute, in memory: counting costs no write. A minute that is over waits
 * in `finished` until `take` hands it over (the shard writes it, one row, from its alarm), so an
 * evicted shard loses at most the minutes not yet written — metrics, never an event — and one
 * whose alarm does not run keeps the last MAX_UNWRITTEN_MINUTES.
 */
export class MinuteMetrics {
  private current?: Minute;
  private finished: Minute[] = [];

  private at(now: number): Minute {
    const minute = minuteOf(now);
    if (this.current?.minute !== minute) {
      if (this.current) this.finish(this.current);
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

  /** The minutes that are over at `now`, oldest first (forgotten here). */
  take(now: number): Minute[] {
    if (this.current && this.current.minute < minuteOf(now)) {
      this.finish(this.current);
      this.current = undefined;
    }
    const taken = this.finished;
    this.finished = [];
    return taken;
  }

  private finish(minute: Minute): void {
    this.finished.push(minute);
    if (this.finished.length > MAX_UNWRITTEN_MINUTES) this.finished.shift();
  }

  /** Minutes that are over but not written yet (the alarm is due), oldest first, for a live view. */
  unwritten(): Minute[] {
    return this.finished;
  }

  /** The minute in progress (not yet written), for a live view. */
  peek(): Minute | undefined {
    return this.current;
  }

  /** When the oldest unwritten minute is (or was) over, or null: the alarm writes it then. */
  dueAt(): number | null {
    const oldest = this.finished[0] ?? this.current;
    return oldest ? (oldest.minute + 1) * 60_000 : null;
  }
}
