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
  private readonly running = new Set<Running>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly outbox: Pick<Outbox, "renewLease">,
    private readonly leaseMs: number,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** Runs `attempt` with the row's lease kept alive until it settles. */
  async during<T>(key: string, token: string, attempt: () => Promise<T>): Promise<T> {
    const entry: Running = { key, token, renewedAt: this.clock() };
    this.running.add(entry);
    this.timer ??= setInterval(this.tick, this.leaseMs / 4);
    try {
      return await attempt();
    } finally {
      this.running.delete(entry);
      if (this.running.size === 0 && this.timer !== undefined) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }
  }

  /** Renews what is due; a lease another claimer owns now is not renewed again. */
  readonly tick = (): void => {
    const now = this.clock();
    for (const entry of this.running) {
      if (now - entry.renewedAt < this.leaseMs / 4) continue;
      entry.renewedAt = now;
      if (!this.outbox.renewLease(entry.key, entry.token, now + this.leaseMs)) this.running.delete(entry);
    }
  };
}
