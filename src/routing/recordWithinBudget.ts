import type { Plan } from "../app/contract";
import type { Inbound } from "../inbound/types";
import { BudgetExceeded } from "../platform/errors";
import type { ShardNamespace } from "../rpc/env";
import type { IngestResult } from "../rpc/shard";
import { workspaceShardStub } from "../rpc/shardStub";

type DurableObjectFlags = { retryable?: boolean; overloaded?: boolean } | null;

/**
 * Durable Object errors marked `overloaded` (Cloudflare's, and a shard's own ShardOverloaded) recorded nothing and
 * must not be retried: retrying makes the overload worse.
 */
export const isOverloaded = (error: unknown) => (error as DurableObjectFlags)?.overloaded === true;

/** Durable Object errors carry these flags: `retryable` may be tried once more, unless overloaded. */
function isRetryable(error: unknown): boolean {
  return (error as DurableObjectFlags)?.retryable === true && !isOverloaded(error);
}

function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  // Losing the race does not cancel the shard's transaction; it may still commit, which is
  // safe because a retry of the same event then finds the receipt and adds nothing.
  work.catch(() => {});
  // The runtime's own timer (scheduler.wait), not setTimeout's, which wraps it in a Timeout to
  // clear: one per delivery was 2 % of the isolate at 300/s. It outlives a race the shard won only
  // until the request ends, which drops it.
  const late = scheduler.wait(Math.max(0, deadline - Date.now())).then(() => {
    throw new BudgetExceeded("ack budget exceeded");
  });
  late.catch(() => {});
  return Promise.race([work, late]);
}

/**
 * Asks the owning shard to record the delivery, within the ack budget. A Durable Object
 * error marked `retryable` (and not `overloaded`) gets one more try on a fresh stub, since
 * a stub that saw such an error is broken. Throws when nothing was confirmed in time.
 */
export async function recordWithinBudget(
  namespace: ShardNamespace,
  shard: string,
  inbound: Inbound,
  budgetMs: number,
  /** The edge's plan of `inbound`, carried so the shard does not plan it again. */
  plan?: Plan,
): Promise<{ result: IngestResult; attempts: number }> {
  const deadline = Date.now() + budgetMs;
  for (let attempts = 1; ; attempts++) {
    try {
      const result = await withDeadline(Promise.resolve(workspaceShardStub(namespace, shard).ingest(inbound, plan)), deadline);
      return { result: result as IngestResult, attempts };
    } catch (error) {
      if (attempts === 1 && isRetryable(error) && Date.now() < deadline) continue;
      throw error;
    }
  }
}
