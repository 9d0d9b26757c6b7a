import { minuteOf } from "../platform/minutes";
import { addInto, emptyHistogram, type Histogram, quantile } from "./histogram";
import { emptyCounts, type MetricCounts, type MinuteRow } from "./minuteMetrics";

/** Latency percentiles (ms, the upper bound of the bucket holding each; null: no sample). */
export interface Percentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** One shard's minutes in the fleet's overview, as the console shows them (not a shard part: parts/part.ts). */
export interface ShardMinutes {
  shard: string;
  workspace: string;
  bucket: string;
  lastActive: number;
  minutes: Array<Omit<MinuteRow, "depth" | "oldestPendingAt"> & Partial<Pick<MinuteRow, "depth" | "oldestPendingAt">>>;
  outbox: { pending: number; parked: number; oldestPendingAt: number | null };
  /** The shard's SQLite size in bytes, now (or as last reported); null: unknown. */
  databaseSize: number | null;
}

/** A row of totals: counts, percentiles, and (for shards and workspaces) the outbox now. */
export interface Totals extends MetricCounts {
  ack: Percentiles;
  delivery: Percentiles;
}

export interface FleetOverview {
  minutes: number;
  /** The window: [from, to) in ms since the epoch. */
  from: number;
  to: number;
  totals: Totals;
  /**
   * One point per minute of the window (minute start, ms), zeros where nothing happened; `depth`
   * is the pending outbox rows of the shards that wrote that minute, as each stood at its end.
   */
  series: Array<{ at: number; depth: number } & Totals>;
  workspaces: Array<
    { workspace: string; shards: number; outboxPending: number; outboxParked: number; oldestPendingAgeMs: number | null } & Totals
  >;
  shards: Array<
    {
      shard: string;
      workspace: string;
      bucket: string;
      lastActive: number;
      /** The outbox now: pending and parked rows (`parked` is the window's count of rows parked). */
      outboxPending: number;
      outboxParked: number;
      oldestPendingAgeMs: number | null;
      /** The shard's SQLite size in bytes (Cloudflare allows 10 GB per object); null: unknown. */
      databaseSize: number | null;
    } & Totals
  >;
}

/** Counts and histograms summed over minutes. */
class Sum {
  readonly counts = emptyCounts();
  readonly ackMs: Histogram = emptyHistogram();
  readonly deliveryMs: Histogram = emptyHistogram();
  depth = 0;

  add(minute: ShardMinutes["minutes"][number]): this {
    this.depth += minute.depth ?? 0;
    for (const name of Object.keys(this.counts) as Array<keyof MetricCounts>) this.counts[name] += minute.counts[name] ?? 0;
    addInto(this.ackMs, minute.ackMs);
    addInto(this.deliveryMs, minute.deliveryMs);
    return this;
  }

  totals(): Totals {
    const percentiles = (histogram: Histogram): Percentiles => ({
      p50: finite(quantile(histogram, 0.5)),
      p95: finite(quantile(histogram, 0.95)),
      p99: finite(quantile(histogram, 0.99)),
    });
    return { ...this.counts, ack: percentiles(this.ackMs), delivery: percentiles(this.deliveryMs) };
  }
}

/** JSON has no Infinity: "above the last bound" (a day) is reported as two days. */
const finite = (value: number | null) => (value === Number.POSITIVE_INFINITY ? 2 * 86_400_000 : value);

const ageMs = (oldest: number | null, now: number) => (oldest === null ? null : Math.max(0, now - oldest));

/**
 * The fleet over the last `minutes` (docs/guides/operations.md "Metrics"): totals, a per-minute series,
 * and rows per workspace and per shard, from each shard's stored minutes and its minute in
 * progress. Percentiles are computed from the summed histograms, never averaged.
 */
export function fleetOverview(parts: readonly ShardMinutes[], minutes: number, now: number): FleetOverview {
  const toMinute = minuteOf(now) + 1;
  const fromMinute = toMinute - minutes;
  const inWindow = (minute: { minute: number }) => minute.minute >= fromMinute && minute.minute < toMinute;
  const fleet = new Sum();
  const byMinute = new Map<number, Sum>();
  const byWorkspace = new Map<string, { sum: Sum; shards: number; pending: number; parked: number; oldest: number | null }>();
  const shards: FleetOverview["shards"] = [];
  for (const part of parts) {
    const sum = new Sum();
    for (const minute of part.minutes.filter(inWindow)) {
      sum.add(minute);
      fleet.add(minute);
      const at = byMinute.get(minute.minute) ?? new Sum();
      byMinute.set(minute.minute, at.add(minute));
    }
    const workspace = byWorkspace.get(part.workspace) ?? { sum: new Sum(), shards: 0, pending: 0, parked: 0, oldest: null };
    for (const minute of part.minutes.filter(inWindow)) workspace.sum.add(minute);
    workspace.shards++;
    workspace.pending += part.outbox.pending;
    workspace.parked += part.outbox.parked;
    const oldest = part.outbox.oldestPendingAt;
    if (oldest !== null && (workspace.oldest === null || oldest < workspace.oldest)) workspace.oldest = oldest;
    byWorkspace.set(part.workspace, workspace);
    shards.push({
      shard: part.shard,
      workspace: part.workspace,
      bucket: part.bucket,
      lastActive: part.lastActive,
      outboxPending: part.outbox.pending,
      outboxParked: part.outbox.parked,
      oldestPendingAgeMs: ageMs(oldest, now),
      databaseSize: part.databaseSize,
      ...sum.totals(),
    });
  }
  const series = Array.from({ length: minutes }, (_, i) => fromMinute + i).map((minute) => {
    const sum = byMinute.get(minute) ?? new Sum();
    return { at: minute * 60_000, depth: sum.depth, ...sum.totals() };
  });
  return {
    minutes,
    from: fromMinute * 60_000,
    to: toMinute * 60_000,
    totals: fleet.totals(),
    series,
    workspaces: [...byWorkspace].map(([workspace, w]) => ({
      workspace,
      shards: w.shards,
      outboxPending: w.pending,
      outboxParked: w.parked,
      oldestPendingAgeMs: ageMs(w.oldest, now),
      ...w.sum.totals(),
    })),
    shards,
  };
}
