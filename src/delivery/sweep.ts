import { describeError, log } from "../platform/log";
import type { ClaimedRow } from "../recording/outbox";
import { type Courier, deliverClaimed } from "./deliverClaimed";

/**
 * Delivers rows already leased to `token`. Never throws: on an unexpected failure the leases
 * stay, and the alarm (armed for their expiry) reclaims the rows.
 */
export async function deliverLeased(courier: Courier, token: string, rows: readonly ClaimedRow[]): Promise<void> {
  try {
    await deliverClaimed(courier, token, rows);
  } catch (error) {
    log("error", "delivery failed", { shard: courier.shard, error: describeError(error) });
  }
}

/** The alarm's sweep: claims and delivers due rows in bounded batches until its time budget is spent. */
export async function sweep(courier: Courier, started: number): Promise<void> {
  const { batchSize, leaseMs, alarmBudgetMs } = courier.delivery;
  while (Date.now() - started < alarmBudgetMs) {
    const token = crypto.randomUUID();
    const rows = courier.outbox.claimBatch(token, Date.now(), leaseMs, batchSize);
    if (rows.length === 0) return;
    await deliverLeased(courier, token, rows);
    if (rows.length < batchSize) return;
  }
}
