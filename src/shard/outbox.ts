import type { PlannedEffect } from "../app/types";
import type { Inbound } from "../inbound/types";

export type OutboxStatus = "pending" | "done" | "parked";

/** All SQL touching `outbox`. */
export class Outbox {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Records the effects of one delivery. The UNIQUE idempotency key (dedupe key + effect name)
   * makes a repeated enqueue a no-op. Returns how many rows were new.
   */
  enqueue(inbound: Inbound, effects: readonly PlannedEffect[], now: number): number {
    let added = 0;
    for (const { name, effect } of effects) {
      added += this.sql.exec(
        `INSERT INTO outbox (idempotency_key, workspace, effect, payload, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING 1`,
        `${inbound.dedupeKey}:${name}`, inbound.workspace, effect.type, JSON.stringify(effect), now, now,
      ).toArray().length;
    }
    return added;
  }

  countsByStatus(): Record<OutboxStatus, number> {
    const counts: Record<OutboxStatus, number> = { pending: 0, done: 0, parked: 0 };
    for (const row of this.sql.exec<{ status: OutboxStatus; n: number }>("SELECT status, count(*) AS n FROM outbox GROUP BY status")) {
      counts[row.status] = row.n;
    }
    return counts;
  }

  /** Earliest time any pending row needs attention: its due time, or its lease expiry if claimed. */
  nextWakeAt(): number | null {
    return this.sql.exec<{ at: number | null }>(
      `SELECT min(CASE WHEN claim_expires_at > next_attempt_at THEN claim_expires_at ELSE next_attempt_at END) AS at
         FROM outbox WHERE status = 'pending'`,
    ).one().at;
  }
}
