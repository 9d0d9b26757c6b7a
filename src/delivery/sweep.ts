import type { Courier } from "./courier";
import { deliverLeased } from "./deliverClaimed";

/** A sweep's claims grow to at most this many batches at once while each comes back full. */
export const SWEEP_GROWTH_MAX = 8;

/**
 * The alarm's sweep: claims and delivers due rows in bounded batches until its time budget or its
 * invocation's subrequests are spent (platform/invocationMeter.ts) — what remains stays due, for
 * the next alarm. Each claim reads an index range (recording/outboxClaims.ts), so a backlog costs
 * its ingests nothing; while claims come back full the backlog is long, and the next claims take
 * twice as many, up to SWEEP_GROWTH_MAX batches: fewer statements and commits for the same rows.
 * Between claims the attempts' calls open the input gate, so ingests and stops go between them.
 */
export async function sweep(courier: Courier, started: number): Promise<void> {
  const { batchSize, leaseMs, alarmBudgetMs } = courier.delivery;
  // The alarm's own meter, taken as it begins: the whole sweep counts on it, whoever comes meanwhile.
  const meter = courier.meters.current;
  let limit = batchSize;
  while (Date.now() - started < alarmBudgetMs) {
    // Every row makes at least one call: no more rows are claimed than subrequests are left (none once spent).
    const claimable = Math.min(limit, meter.left);
    if (claimable <= 0) return;
    const token = crypto.randomUUID();
    const rows = courier.outbox.claimBatch(token, Date.now(), leaseMs, claimable);
    if (rows.length === 0) return;
    // After an attempt was cut short, one row at a time: each gets what is left, not a sixth of it.
    await deliverLeased(courier, token, rows, meter.lean ? 1 : undefined, meter);
    if (rows.length < claimable) return;
    limit = Math.min(limit * 2, batchSize * SWEEP_GROWTH_MAX);
  }
}
