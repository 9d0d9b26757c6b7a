import { quantile } from "../metrics/histogram";
import { MetricStore } from "../metrics/metricStore";
import { MinuteMetrics, type MinuteRow } from "../metrics/minuteMetrics";
import type { DeliveryListener } from "../platform/deliveryEvents";
import { describeError, log } from "../platform/log";
import type { Outbox } from "../recording/outbox";
import type { ShardStorage } from "../recording/shardStorage";
import type { ShardNamespace } from "../rpc/env";
import type { IngestResult, ShardMetrics } from "../rpc/shard";
import { watchStub } from "../rpc/shardStub";
import type { ShardLoad } from "../rpc/watch";

/**
 * A shard's metrics: this minute's counts in memory, written (one row) once the minute is over,
 * from the alarm — nothing of it is on the ack path. A workspace shard also tells the watch's
 * registry it is alive (`registry`): at its first ingest or alarm, then with each minute written.
 */
export class Metrics {
  private readonly minutes = new MinuteMetrics();
  private readonly store: MetricStore;
  /** Rows written (alarms included) up to the last metrics minute written. */
  private rowsMark = 0;
  /** Whether this instance has told the watch it exists. */
  private registered = false;

  constructor(
    private readonly storage: ShardStorage,
    private readonly outbox: Outbox,
    private readonly registry?: ShardNamespace,
  ) {
    this.store = new MetricStore(storage.sql);
    // A metrics minute to write once it is over.
    storage.wakeUps.register(() => this.minutes.dueAt());
  }

  /** An ingest's verdict and its ack time: the ack waits for this record, from the edge handing it over to here. */
  recorded(verdict: IngestResult["verdict"], receivedAt: number | undefined, now: number): void {
    this.minutes.count(verdict === "accepted" ? "accepted" : verdict === "duplicate" ? "duplicates" : "ignored", now);
    if (receivedAt !== undefined) this.minutes.ack(now - receivedAt, now);
    // The minute is written when it is over, even if nothing else wakes the shard then.
    this.storage.wakeUps.arm(this.minutes.dueAt());
  }

  /** An ingest refused for waiting too long in front of the shard (overloadGuard.ts), in this minute's `overloaded`. */
  overloaded(now: number): void {
    this.minutes.count("overloaded", now);
  }

  /** A turn refused by its budget (`limits`), in this minute's `turnsRefused`. */
  turnRefused(now: number): void {
    this.minutes.count("turnsRefused", now);
  }

  /** The delivery-events subscriber: outcomes into this minute (after the commit, off the ack path). */
  readonly onDelivery: DeliveryListener = (event) => {
    const now = Date.now();
    if (event.type === "delivered") this.minutes.delivered(now - event.recordedAt, now);
    else if (event.type === "retried" || event.type === "parked" || event.type === "stopped" || event.type === "fenceRejected")
      this.minutes.count(event.type === "fenceRejected" ? "fenceRejections" : event.type, now);
    else return;
    this.storage.wakeUps.arm(this.minutes.dueAt());
  };

  /** The alarm's part: writes each metrics minute that is over — one row each — then makes sure the watch knows us. */
  due(now: number): void {
    const minutes = this.storage.migrated ? this.minutes.take(now) : [];
    if (minutes.length > 0) {
      const written = this.storage.sql.rowsWritten + this.storage.wakeUps.alarmsSet;
      const depth = this.outboxDepth();
      const databaseSize = this.storage.databaseSize();
      for (const [i, minute] of minutes.entries()) {
        // The rows written since the last minute written are all put on the newest one.
        minute.counts.rowsWritten = i === minutes.length - 1 ? written - this.rowsMark : 0;
        try {
          this.store.save({ ...minute, ...depth, databaseSize });
        } catch (error) {
          log("warn", "metrics minute not written", { shard: this.storage.name, error: describeError(error) });
        }
      }
      this.rowsMark = written;
      this.register(now, loadOf(minutes.at(-1)!));
    }
    this.registerOnce(now);
  }

  /** At the first ingest or alarm of this instance: the watch's registry hears of this shard. */
  registerOnce(now: number): void {
    if (!this.registered) this.register(now);
  }

  /**
   * Tells the watch's registry this shard is alive, its size and its last minute's load (the
   * registry: at most once a minute; the watch alerts on the size and spreads by the load).
   */
  private register(now: number, load?: ShardLoad): void {
    const registry = this.registry;
    if (!registry) return;
    this.registered = true;
    const shard = this.storage.name;
    const databaseSize = this.storage.migrated ? this.storage.databaseSize() : undefined;
    void Promise.resolve(watchStub(registry).shardSeen(shard, now, databaseSize, load)).catch((error: unknown) =>
      log("warn", "shard not registered with the watch", { shard, error: describeError(error) }),
    );
  }

  /** The backlog from the outbox's counts and its first waiting row (no scan: outboxCounts.ts, outboxClaims.ts). */
  private outboxDepth(): { depth: number; oldestPendingAt: number | null } {
    return { depth: this.outbox.countsByStatus().pending, oldestPendingAt: this.outbox.nextInLineSince() };
  }

  /** Metric minutes from `fromMinute` on, the minute in progress, and the outbox now: for the console. */
  metricsSince(fromMinute: number): ShardMetrics {
    const live = this.minutes.peek();
    const unwritten = this.minutes.unwritten();
    if (!this.storage.migrated) return { minutes: [], unwritten, live, outbox: { pending: 0, parked: 0, oldestPendingAt: null } };
    const { pending, parked } = this.outbox.countsByStatus();
    return {
      minutes: this.store.since(fromMinute),
      unwritten,
      live,
      outbox: { pending, parked, oldestPendingAt: this.outbox.nextInLineSince() },
      databaseSize: this.storage.databaseSize(),
    };
  }
}

/** A written minute's load, as the automatic spread judges it (watch/spreadDecision.ts). */
function loadOf(minute: Omit<MinuteRow, "depth" | "oldestPendingAt">): ShardLoad {
  // Refused ingests were offered all the same: a shard that refuses must not look less busy for it.
  const { accepted, duplicates, ignored, overloaded = 0 } = minute.counts;
  return { minute: minute.minute, ingests: accepted + duplicates + ignored + overloaded, ackP90Ms: quantile(minute.ackMs, 0.9) };
}
