import type { MeteredSql } from "../platform/sql/meteredSql";
import type { MetricCounts, MinuteRow } from "./minuteMetrics";

/** Metric minutes are kept this long (docs/guides/operations.md "Metrics"). */
export const METRICS_RETENTION_MINUTES = 7 * 24 * 60;

type StoredMinute = {
  minute: number;
  counts: string;
  ack_ms: string;
  delivery_ms: string;
  depth: number;
  oldest_pending_at: number | null;
  database_size: number | null;
};

/** All SQL touching `metric_minutes`: one row written per minute with traffic, pruned after 7 days. */
export class MetricStore {
  constructor(private readonly sql: MeteredSql) {}

  save(row: MinuteRow): void {
    this.sql.all(
      `INSERT INTO metric_minutes (minute, counts, ack_ms, delivery_ms, depth, oldest_pending_at, database_size)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (minute) DO UPDATE SET counts = excluded.counts, ack_ms = excluded.ack_ms,
         delivery_ms = excluded.delivery_ms, depth = excluded.depth, oldest_pending_at = excluded.oldest_pending_at,
         database_size = excluded.database_size`,
      row.minute,
      JSON.stringify(row.counts),
      JSON.stringify(row.ackMs),
      JSON.stringify(row.deliveryMs),
      row.depth,
      row.oldestPendingAt,
      row.databaseSize ?? null,
    );
    // Minutes past the retention go as new ones are written (a shard that stays idle keeps its last ones).
    this.sql.all("DELETE FROM metric_minutes WHERE minute <= ?", row.minute - METRICS_RETENTION_MINUTES);
  }

  since(fromMinute: number): MinuteRow[] {
    return this.sql
      .all<StoredMinute>(
        `SELECT minute, counts, ack_ms, delivery_ms, depth, oldest_pending_at, database_size
         FROM metric_minutes WHERE minute >= ? ORDER BY minute`,
        fromMinute,
      )
      .map((row) => ({
        minute: row.minute,
        counts: JSON.parse(row.counts) as MetricCounts,
        ackMs: JSON.parse(row.ack_ms) as number[],
        deliveryMs: JSON.parse(row.delivery_ms) as number[],
        depth: row.depth,
        oldestPendingAt: row.oldest_pending_at,
        databaseSize: row.database_size,
      }));
  }
}
