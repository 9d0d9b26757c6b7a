import type { MeteredSql } from "./meteredSql";
import type { AckBody } from "../app/types";
import type { Inbound } from "../inbound/types";

/** All SQL touching `receipts`. */
export class Receipts {
  constructor(private readonly sql: MeteredSql) {}

  /**
   * Records a delivery. Returns true only for the first delivery of its dedupe key: the
   * primary-key conflict and the insert are one statement, so two concurrent deliveries
   * cannot both win. Decided by RETURNING, never by rowsWritten (which counts index rows).
   */
  recordFirst(inbound: Inbound, ackBody: AckBody | undefined, now: number): boolean {
    const won = this.sql.count(
      `INSERT INTO receipts (dedupe_key, kind, type, workspace, retry_num, retry_reason, response, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (dedupe_key) DO NOTHING
       RETURNING 1 AS won`,
      inbound.dedupeKey, inbound.kind, inbound.type, inbound.workspace,
      inbound.retryNum ?? null, inbound.retryReason ?? null,
      ackBody === undefined ? null : JSON.stringify(ackBody), now,
    );
    return won === 1;
  }

  /**
   * Records that a fact-scoped effect (one per message, whichever event carried it) has been
   * enqueued. Returns false when another event for the same message got there first. Kept and
   * pruned like any receipt, so a twin arriving after the effect was delivered is still caught.
   */
  recordFirstFact(outboxKey: string, inbound: Inbound, now: number): boolean {
    return this.sql.count(
      `INSERT INTO receipts (dedupe_key, kind, type, workspace, received_at)
       VALUES (?, 'fact', ?, ?, ?)
       ON CONFLICT (dedupe_key) DO NOTHING
       RETURNING 1`,
      `fact:${outboxKey}`, inbound.type, inbound.workspace, now,
    ) === 1;
  }

  /** The ack body the first delivery answered with, so a duplicate answers the same. */
  responseOf(dedupeKey: string): AckBody | undefined {
    const row = this.sql.all<{ response: string | null }>("SELECT response FROM receipts WHERE dedupe_key = ?", dedupeKey)[0];
    return row?.response ? (JSON.parse(row.response) as AckBody) : undefined;
  }

  /** Deletes up to `limit` receipts received before `cutoff`, oldest first. Returns how many. */
  pruneBefore(cutoff: number, limit: number): number {
    return this.sql.count(
      `DELETE FROM receipts WHERE dedupe_key IN (
         SELECT dedupe_key FROM receipts WHERE received_at < ? ORDER BY received_at LIMIT ?)
       RETURNING 1`,
      cutoff, limit,
    );
  }

  oldestReceivedAt(): number | null {
    return this.sql.one<{ at: number | null }>("SELECT min(received_at) AS at FROM receipts").at;
  }

  /** Receipts of deliveries (fact receipts of fact-scoped effects not included). */
  count(): number {
    return this.sql.one<{ n: number }>("SELECT count(*) AS n FROM receipts WHERE kind != 'fact'").n;
  }
}
