import type { AckBody } from "../app/types";
import type { Inbound } from "../inbound/types";
import type { MeteredSql } from "./meteredSql";

/**
 * All SQL touching `receipts`. Receipts are filed by generation — `floor(received_at /
 * retention)` — so a receipt is kept at least one retention and deleted before two, and
 * pruning walks the primary key instead of an index that every insert would pay for.
 */
export class Receipts {
  constructor(
    private readonly sql: MeteredSql,
    private readonly retentionMs: number,
  ) {}

  private generationAt(now: number): number {
    return Math.floor(now / this.retentionMs);
  }

  /**
   * Records a delivery. Returns true only for the first delivery of its dedupe key. The
   * look-up in the previous generation and the insert run in the caller's transaction, and
   * the insert's primary-key conflict is one statement, so two concurrent deliveries cannot
   * both win. Decided by RETURNING, never by rowsWritten.
   */
  recordFirst(inbound: Inbound, ackBody: AckBody | undefined, now: number): boolean {
    return this.insertFirst(inbound.dedupeKey, inbound, "kind", now, ackBody);
  }

  /**
   * Records that a fact-scoped effect (one per message, whichever event carried it) has been
   * enqueued. Returns false when another event for the same message got there first. Kept and
   * pruned like any receipt, so a twin arriving after the effect was delivered is still caught.
   */
  recordFirstFact(outboxKey: string, inbound: Inbound, now: number): boolean {
    return this.insertFirst(`fact:${outboxKey}`, inbound, "fact", now);
  }

  private insertFirst(key: string, inbound: Inbound, kind: "kind" | "fact", now: number, ackBody?: AckBody): boolean {
    const generation = this.generationAt(now);
    if (this.sql.all("SELECT 1 FROM receipts WHERE generation = ? AND dedupe_key = ?", generation - 1, key).length > 0)
      return false;
    return (
      this.sql.count(
        `INSERT INTO receipts (generation, dedupe_key, kind, type, workspace, retry_num, retry_reason, response, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (generation, dedupe_key) DO NOTHING
       RETURNING 1`,
        generation,
        key,
        kind === "fact" ? "fact" : inbound.kind,
        inbound.type,
        inbound.workspace,
        inbound.retryNum ?? null,
        inbound.retryReason ?? null,
        ackBody === undefined ? null : JSON.stringify(ackBody),
        now,
      ) === 1
    );
  }

  /** The ack body the first delivery answered with, so a duplicate answers the same. */
  responseOf(dedupeKey: string, now: number): AckBody | undefined {
    const generation = this.generationAt(now);
    const [row] = this.sql.all<{ response: string | null }>(
      "SELECT response FROM receipts WHERE generation IN (?, ?) AND dedupe_key = ?",
      generation,
      generation - 1,
      dedupeKey,
    );
    return row?.response ? (JSON.parse(row.response) as AckBody) : undefined;
  }

  /** Deletes up to `limit` receipts of generations older than the previous one. Returns how many. */
  pruneExpired(now: number, limit: number): number {
    return this.sql.count(
      `DELETE FROM receipts WHERE (generation, dedupe_key) IN (
         SELECT generation, dedupe_key FROM receipts WHERE generation < ? ORDER BY generation LIMIT ?)
       RETURNING 1`,
      this.generationAt(now) - 1,
      limit,
    );
  }

  /** When the oldest receipts become prunable (now, if they already are), or null when there are none. */
  nextPruneAt(now: number): number | null {
    const oldest = this.sql.one<{ generation: number | null }>("SELECT min(generation) AS generation FROM receipts").generation;
    if (oldest === null) return null;
    return Math.max(now, (oldest + 2) * this.retentionMs);
  }

  /** Receipts held: of deliveries, and of messages whose effects are fact-scoped. */
  count(): number {
    return this.sql.one<{ n: number }>("SELECT count(*) AS n FROM receipts").n;
  }
}
