import type { Plan } from "../app/contract";
import type { Inbound } from "../inbound/types";
import { BudgetExceeded, IngestsInFlight } from "../platform/errors";
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

/** Ingests this Worker instance has sent to each shard that the shard has not answered yet (answered late included). */
const inFlight = new Map<string, number>();

/** Counts `work` as in flight to `shard` until it settles — past the ack budget too, since it still waits in the shard's queue. */
function counted<T>(shard: string, work: Promise<T>): Promise<T> {
  inFlight.set(shard, (inFlight.get(shard) ?? 0) + 1);
  const done = () => {
    const left = (inFlight.get(shard) ?? 1) - 1;
    if (left > 0) inFlight.set(shard, left);
    else inFlight.delete(shard);
  };
  work.then(done, done);
  return work;
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
  /** SHARD_INGESTS_IN_FLIGHT_MAX: past this many unanswered ingests to the shard from this instance, refuse at once. */
  inFlightMax = Number.POSITIVE_INFINITY,
): Promise<{ result: IngestResult; attempts: number }> {
  // Cloudflare refuses past an object's queue ("Too many requests queued"); locally this instance's ingests ARE
  // the shard's queue (one thread runs both), so past the bound one more is refused before it costs the shard a turn.
  const waiting = inFlight.get(shard) ?? 0;
  if (waiting >= inFlightMax) throw new IngestsInFlight(waiting, inFlightMax);
  const deadline = Date.now() + budgetMs;
  for (let attempts = 1; ; attempts++) {
    try {
      const sent = counted(shard, Promise.resolve(workspaceShardStub(namespace, shard).ingest(inbound, plan)));
      const result = await withDeadline(sent, deadline);
      return { result: result as IngestResult, attempts };
    } catch (error) {
      if (attempts === 1 && isRetryable(error) && Date.now() < deadline) continue;
      throw error;
    }
  }
}
