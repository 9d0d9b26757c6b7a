import type { MeteredSql } from "../../platform/sql/meteredSql";

/** The tables kept per thread — one row per (team, channel, thread_ts), with an indexed `saved_at` — and pruned by age. */
export type ThreadTable = "assistant_threads" | "session_titles";

/** When the oldest row of `table` was saved (ms since the epoch), or null when none is kept. */
export function oldestSavedAt(sql: MeteredSql, table: ThreadTable): number | null {
  return sql.one<{ at: number | null }>(`SELECT min(saved_at) AS at FROM ${table}`).at;
}

/** Deletes up to `limit` rows of `table` saved before `before`, oldest first. Returns how many. */
export function pruneSavedBefore(sql: MeteredSql, table: ThreadTable, before: number, limit: number): number {
  return sql.count(
    `DELETE FROM ${table} WHERE (team, channel, thread_ts) IN (
       SELECT team, channel, thread_ts FROM ${table} WHERE saved_at < ? ORDER BY saved_at LIMIT ?)
     RETURNING 1`,
    before,
    limit,
  );
}
