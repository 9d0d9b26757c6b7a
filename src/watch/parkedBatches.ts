import type { MeteredSql } from "../platform/sql/meteredSql";
import type { DeliveryReport } from "../rpc/outcomes";
import { parkedAlert } from "./alertTexts";

/** At most one parked-effects alert per shard per this long; what parks meanwhile is counted into the next. */
export const PARKED_ALERT_INTERVAL_MS = 60_000;

type Batch = { shard: string; pending: number; last_reason: string | null; last_key: string | null };

/**
 * Parked effects, alerted in batches (`parked_batches`): the first park on a quiet shard is
 * alerted at once; later ones within the minute are counted and alerted together when it is up
 * (the watch's alarm calls `due`). Returns the alerts to send now.
 */
export function addParked(sql: MeteredSql, shard: string, parked: NonNullable<DeliveryReport["parked"]>, now: number): string[] {
  const [row] = sql.all<{ alerted_at: number | null; pending: number }>(
    "SELECT alerted_at, pending FROM parked_batches WHERE shard = ?",
    shard,
  );
  const quiet = !row || row.alerted_at === null || now - row.alerted_at >= PARKED_ALERT_INTERVAL_MS;
  if (quiet && (row?.pending ?? 0) === 0) {
    sql.all(
      `INSERT INTO parked_batches (shard, pending, alerted_at, due_at) VALUES (?1, 0, ?2, NULL)
       ON CONFLICT (shard) DO UPDATE SET pending = 0, alerted_at = ?2, due_at = NULL`,
      shard,
      now,
    );
    return [parkedAlert(shard, parked.count, parked.reason, parked.key)];
  }
  sql.all(
    `UPDATE parked_batches SET pending = pending + ?2, last_reason = ?3, last_key = ?4,
       due_at = coalesce(alerted_at, ?5) + ?6 WHERE shard = ?1`,
    shard,
    parked.count,
    parked.reason,
    parked.key,
    now,
    PARKED_ALERT_INTERVAL_MS,
  );
  return [];
}

/** The batches whose minute is up: one alert each, with the count. */
export function dueParked(sql: MeteredSql, now: number): string[] {
  const due = sql.all<Batch>(
    "SELECT shard, pending, last_reason, last_key FROM parked_batches WHERE due_at <= ? AND pending > 0",
    now,
  );
  for (const batch of due)
    sql.all("UPDATE parked_batches SET pending = 0, alerted_at = ?, due_at = NULL WHERE shard = ?", now, batch.shard);
  return due.map((batch) => parkedAlert(batch.shard, batch.pending, batch.last_reason ?? "unknown", batch.last_key ?? "unknown"));
}

/** When the next batch is due, or null. */
export function nextParkedDueAt(sql: MeteredSql): number | null {
  return sql.one<{ at: number | null }>("SELECT min(due_at) AS at FROM parked_batches WHERE pending > 0").at;
}
