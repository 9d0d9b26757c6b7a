import type { DeliveryCounters } from "../platform/deliveryEvents";
import { log } from "../platform/log";
import type { Outbox } from "../recording/outbox";
import { matchesParked } from "../recording/parkedMatch";
import type { ParkedOrder } from "../recording/parkedRows";
import type { ShardStorage } from "../recording/shardStorage";
import type { ParkedBatch, ParkedBatchResult } from "../rpc/parkedFilter";
import type { ParkedCursor, ParkedRow, ShardStats } from "../rpc/shard";

/** What operations read of the recording part (the watch has none: it records nothing). */
export interface RecordingCounts {
  /** Deliveries this instance accepted. */
  readonly accepted: number;
  /** Turns this instance refused: over a budget (`limits`). */
  readonly turnsRefused: number;
  /** Ingests this instance refused as overloaded (OVERLOAD_WAIT_MS). */
  readonly overload: { readonly refused: number };
  receiptCount(): number;
}

/**
 * A shard's operations RPCs (used by /admin): cheap reads and explicit, logged operator actions
 * on its dead-letter queue. On a shard that was never written they answer empty, and create nothing.
 */
export class Operations {
  constructor(
    private readonly storage: ShardStorage,
    private readonly outbox: Outbox,
    private readonly counters: DeliveryCounters,
    private readonly recording?: RecordingCounts,
  ) {}

  stats(): ShardStats {
    const { storage, recording } = this;
    const counters = {
      ...this.counters,
      accepted: recording?.accepted ?? 0,
      turnsRefused: recording?.turnsRefused ?? 0,
      overloaded: recording?.overload.refused ?? 0,
      rowsWritten: storage.sql.rowsWritten,
      statements: storage.sql.statements,
      alarmsSet: storage.wakeUps.alarmsSet,
    };
    if (!storage.migrated) return { receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 }, migration: null, counters };
    const receipts = recording?.receiptCount() ?? 0;
    return { receipts, outbox: this.outbox.countsByStatus(), migration: storage.applied, counters };
  }

  /** A shard's own dead-letter queue, oldest first (GET …/parked). */
  listParked(limit = 100): ParkedRow[] {
    return this.parkedRows(limit, "oldest first");
  }

  /** A page of the fleet's dead-letter queue, newest first (GET /admin/api/parked). */
  listParkedBefore(before: ParkedCursor | null, limit: number): ParkedRow[] {
    return this.parkedRows(limit, { newestBefore: before });
  }

  /** Puts the parked rows among `keys` (or all of them) back in line; the alarm delivers them. */
  replayParked(keys: string[] | null): number {
    const now = Date.now();
    const replayed = this.storage.migrated ? this.outbox.parked.replay(now, keys) : 0;
    if (replayed > 0) this.storage.wakeUps.arm(now);
    log("info", "parked effects replayed", { shard: this.storage.name, keys: whichKeys(keys), replayed });
    return replayed;
  }

  discardParked(keys: string[] | null): number {
    const discarded = this.storage.migrated ? this.outbox.parked.discard(keys) : 0;
    log("info", "parked effects discarded", { shard: this.storage.name, keys: whichKeys(keys), discarded });
    return discarded;
  }

  /**
   * One batch of a filtered count, replay or discard: reads at most `examine` (≤ 1000) dead letters
   * of the filter's time range after `after`, and acts on those that match in the same synchronous
   * turn (no await: nothing parks or replays in between). Stopped runs are never read (DEAD_LETTER).
   */
  parkedMatching({ filter, action, after, examine }: ParkedBatch): ParkedBatchResult {
    if (!this.storage.migrated) return { matched: 0, after: null };
    const limit = Math.min(Math.max(Math.trunc(examine) || 1, 1), 1000);
    const rows = this.outbox.parked.page(filter.since ?? 0, filter.until ?? Number.MAX_SAFE_INTEGER, after, limit);
    const keys = rows.filter((row) => matchesParked(filter, row)).map((row) => row.idempotency_key);
    const last = rows.at(-1);
    const next = rows.length === limit && last ? { parkedAt: last.parked_at, key: last.idempotency_key } : null;
    if (action === "count" || keys.length === 0) return { matched: keys.length, after: next };
    const matched = action === "replay" ? this.replayParked(keys) : this.discardParked(keys);
    return { matched, after: next };
  }

  /**
   * The older names of replayParked and discardParked, kept callable while a Worker of an earlier
   * version may still call them (a rolling deploy); ours no longer do (docs/design.md "Words").
   */
  replay(key?: string): number {
    return this.replayParked(key === undefined ? null : [key]);
  }

  discard(key: string): boolean {
    return this.discardParked([key]) === 1;
  }

  private parkedRows(limit: number, order: ParkedOrder): ParkedRow[] {
    if (!this.storage.migrated) return [];
    return this.outbox.parked.list(Math.min(Math.max(limit, 1), 1000), order);
  }
}

/** Which parked rows an operation was for, as a log line says it: the key, a count, or "all". */
const whichKeys = (keys: string[] | null) => (keys === null ? "all" : keys.length === 1 ? keys[0] : `${keys.length} keys`);
