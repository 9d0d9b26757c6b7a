import type { Inbound } from "../inbound/types";
import { ShardOverloaded } from "../platform/errors";
import type { Metrics } from "./metrics";

/**
 * A shard past its capacity refuses what it cannot serve in time, as Cloudflare refuses requests queued too long in
 * front of a Durable Object ("Durable Object is overloaded. Requests queued for too long."), which local `workerd`
 * never does: it queues every request, and queued ingests then sit ahead of every delivery step, so acks go on while
 * replies starve. The signal is the shard's own: how long the ingest took to reach it from the edge receiving its
 * request (`receivedAt`, the edge's clock; the shard's clock is read as its turn starts), which holds whatever the
 * number of edge instances. A refusal writes nothing; the edge answers 503 and Slack retries later.
 */
export class OverloadGuard {
  /** Ingests this instance refused. */
  refused = 0;

  constructor(
    private readonly maxWaitMs: number,
    private readonly metrics: Metrics,
  ) {}

  /** Throws ShardOverloaded for an ingest that waited past OVERLOAD_WAIT_MS; one of an older edge (no stamp) passes. */
  admit(inbound: Inbound, now: number): void {
    if (inbound.receivedAt === undefined) return;
    const waited = now - inbound.receivedAt;
    if (waited <= this.maxWaitMs) return;
    this.refused++;
    // Counted in memory only (no alarm armed, nothing written): the minute is written with the shard's other work.
    this.metrics.overloaded(now);
    throw new ShardOverloaded(waited, this.maxWaitMs);
  }
}
