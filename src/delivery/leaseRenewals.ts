import { TickingSet } from "../platform/tickingSet";
import type { Outbox } from "../recording/outbox";

interface Running {
  key: string;
  token: string;
  renewedAt: number;
}

/**
 * Keeps the leases of a shard's running attempts alive with ONE timer for all of them, so a long
 * run (an LLM call in a step, several sequential Slack calls) is not reclaimed and performed twice.
 * The timer ticks every quarter lease while any attempt runs, and renews those last renewed (or
 * started) at least a quarter lease ago: no lease is left with less than half of it. A Slack call
 * ends within DELIVERY_TIMEOUT_MS, well inside that, so plain effects are never renewed; a timer
 * per attempt cost a setInterval and a clearInterval on every row. Leaving is not a release: a
 * lease still ends only by expiry or a fenced settle. If the Durable Object dies, the timer dies
 * with it and the leases run out as designed.
 */
export class LeaseRenewals {
  private readonly running: TickingSet<Running>;

  constructor(
    private readonly outbox: Pick<Outbox, "renewLease">,
    private readonly leaseMs: number,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.running = new TickingSet(leaseMs / 4, (entry) => this.renew(entry));
  }

  /** Runs `attempt` with the row's lease kept alive until it settles. */
  async during<T>(key: string, token: string, attempt: () => Promise<T>): Promise<T> {
    const entry: Running = { key, token, renewedAt: this.clock() };
    this.running.add(entry);
    try {
      return await attempt();
    } finally {
      this.running.delete(entry);
    }
  }

  /** Renews the entry if due; a lease another claimer owns now is not renewed again (the entry is dropped). */
  private renew(entry: Running): boolean {
    const now = this.clock();
    if (now - entry.renewedAt < this.leaseMs / 4) return true;
    entry.renewedAt = now;
    return this.outbox.renewLease(entry.key, entry.token, now + this.leaseMs);
  }
}
