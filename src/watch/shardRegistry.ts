import type { MeteredSql } from "../platform/sql/meteredSql";
import type { RegisteredShard } from "../rpc/watch";

/** A shard past STORAGE_ALERT_BYTES is alerted at most once per this long. */
export const STORAGE_ALERT_INTERVAL_MS = 24 * 3_600_000;

/**
 * The shards that exist (`shard_registry`, in the watch): each shard reports itself when it
 * writes a metrics minute — at most once a minute — with its size, so the console lists and
 * aggregates the fleet without knowing names, at one row written per shard per active minute.
 */
export class ShardRegistry {
  constructor(private readonly sql: MeteredSql) {}

  seen(shard: string, at: number, databaseSize?: number): void {
    const cut = shard.lastIndexOf("/");
    this.sql.all(
      `INSERT INTO shard_registry (shard, workspace, bucket, first_seen, last_active, database_size) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
       ON CONFLICT (shard) DO UPDATE SET last_active = max(last_active, ?4), database_size = coalesce(?5, database_size)`,
      shard,
      shard.slice(0, cut),
      shard.slice(cut + 1),
      at,
      databaseSize ?? null,
    );
  }

  /**
   * Whether a storage alert for `shard` is due now — none in the last STORAGE_ALERT_INTERVAL_MS —
   * and if so, marks it sent: one statement, so two reports never both win.
   */
  storageAlertDue(shard: string, now: number): boolean {
    return (
      this.sql.count(
        `UPDATE shard_registry SET storage_alerted_at = ?2
         WHERE shard = ?1 AND (storage_alerted_at IS NULL OR storage_alerted_at <= ?2 - ?3) RETURNING 1`,
        shard,
        now,
        STORAGE_ALERT_INTERVAL_MS,
      ) > 0
    );
  }

  /** Shards active since `since` (ms), in name order. */
  activeSince(since: number): RegisteredShard[] {
    return this.sql
      .all<{
        shard: string;
        workspace: string;
        bucket: string;
        first_seen: number;
        last_active: number;
        database_size: number | null;
      }>(
        `SELECT shard, workspace, bucket, first_seen, last_active, database_size FROM shard_registry
         WHERE last_active >= ? ORDER BY shard`,
        since,
      )
      .map((row) => ({
        shard: row.shard,
        workspace: row.workspace,
        bucket: row.bucket,
        firstSeen: row.first_seen,
        lastActive: row.last_active,
        databaseSize: row.database_size,
      }));
  }
}
