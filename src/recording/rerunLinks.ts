import { rerunOf, rerunRange } from "../inbound/reruns";
import type { MeteredSql } from "../platform/sql/meteredSql";
import { type Receipts, tableOf } from "./receipts";

/**
 * How a story links its re-runs (docs/design.md "An event's story"), read off dedupe keys: a
 * re-run's key names its original (`{id}:rerun:{key}`), and the original's re-runs are the
 * receipts in that key range — a primary-key range in each kept generation and in the outbox rows
 * that carry receipts, never a scan — as the re-run is recorded in its original's shard. No column
 * and no row more than the re-run's receipt.
 */
export function rerunLinks(sql: MeteredSql, receipts: Receipts, id: string, now: number): { rerunOf?: string; reruns: string[] } {
  const [from, to] = rerunRange(id);
  const inRange = (table: string, key: string, folded: boolean) =>
    sql.all<{ dedupe_key: string; received_at: number }>(
      `SELECT ${key} AS dedupe_key, received_at FROM ${table} WHERE ${folded ? "idempotency_key > ?1 AND idempotency_key < ?2 AND " : ""}${key} > ?1 AND ${key} < ?2`,
      from,
      to,
    );
  // A re-run's receipt is a row of its own, or carried by its first outbox row, whose key is in the same range (foldedReceipts.ts).
  const folded = receipts.folded;
  const found = [
    ...receipts.keptGenerations(now).flatMap((generation) => inRange(tableOf(generation), "dedupe_key", false)),
    ...(folded?.tables(now) ?? []).flatMap((table) => inRange(table, "receipt_key", true)),
  ]
    .filter((row, n, rows) => rows.findIndex((other) => other.dedupe_key === row.dedupe_key) === n)
    // Its re-runs', in the same range, are theirs to list.
    .filter((row) => rerunOf(row.dedupe_key) === id)
    .sort((a, b) => a.received_at - b.received_at);
  const original = rerunOf(id);
  return { ...(original === undefined ? {} : { rerunOf: original }), reruns: found.map((row) => row.dedupe_key) };
}
