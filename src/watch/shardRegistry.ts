import type { MeteredSql } from "../platform/sql/meteredSql";
import type { RegisteredShard } from "../rpc/watch";
import type { ShardFigures } from "./spreadDecision";

/** A shard's last minute as the automatic spread judged it: its busy share, and whether that was warm (at least half the trigger). */
export interface ReportedBusy {
  share: number;
  minute: number;
  warm: boolean;
}

/** A shard past STORAGE_ALERT_BYTES is alerted at most once per this long. */
export const STORAGE_ALERT_INTERVAL_MS = 24 * 3_600_000;

/**
 * The shards that exist (`shard_registry`, in the watch): each shard reports itself when it
 * writes a metrics minute — at most once a minute — with its size, so the console lists and
 * aggregates the fleet without knowing names, at one row written per shard per active minute.
 */
export class ShardRegistry {
  constructor(private readonly sql: MeteredSql) {}

  /** The same one row written per report, whatever it carries: a shard's busy figures cost no row more. */
  seen(shard: string, at: number, databaseSize?: number, busy?: ReportedBusy): void {
    const cut = shard.lastIndexOf("/");
    this.sql.all(
      `INSERT INTO shard_registry (shard, workspace, bucket, first_seen, last_active, database_size, busy_share, busy_minute, warm_at)
       VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT (shard) DO UPDATE SET last_active = max(last_active, ?4), database_size = coalesce(?5, database_size),
         busy_share = coalesce(?6, busy_share), busy_minute = coalesce(?7, busy_minute), warm_at = coalesce(?8, warm_at)`,
      shard,
      shard.slice(0, cut),
      shard.slice(cut + 1),
      at,
      databaseSize ?? null,
      busy?.share ?? null,
      busy?.minute ?? null,
      busy?.warm ? at : null,
    );
  }

  /** What the registry holds of a workspace's shards: its names' range ("{workspace}/" up to "{workspace}0"), no index more. */
  figuresOf(workspace: string): ShardFigures[] {
    return this.sql
      .all<{ busy_share: number | null; busy_minute: number | null; warm_at: number | null }>(
        "SELECT busy_share, busy_minute, warm_at FROM shard_registry WHERE shard > ? AND shard < ?",
        `${workspace}/`,
        `${workspace}0`,
      )
      .map((row) => ({ busyShare: row.busy_share, busyMinute: row.busy_minute, warmAt: row.warm_at }));
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
        busy_share: number | null;
        busy_minute: number | null;
      }>(
        `SELECT shard, workspace, bucket, first_seen, last_active, database_size, busy_share, busy_minute FROM shard_registry
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
        busyShare: row.busy_share,
        busyMinute: row.busy_minute,
      }));
  }
}
