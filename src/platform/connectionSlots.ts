/** Cloudflare's limit: connections one invocation may have waiting for an answer at once; more only queue. */
export const OPEN_CONNECTIONS_MAX = 6;

/**
 * A counting semaphore for a shard's outbound connections: at most `max` held at once, the rest
 * wait in the order they asked. Our own queue rather than the runtime's, so that a call's
 * timeout starts only once it holds a slot (outboundCalls.ts), not while it waits for one.
 */
export class ConnectionSlots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max = OPEN_CONNECTIONS_MAX) {}

  /** Resolves with the slot's release once one is free (at once when one is). */
  acquire(): Promise<() => void> {
    if (this.held < this.max) {
      this.held++;
      return Promise.resolve(this.releaser());
    }
    // First come, first served: a call asked earlier never waits behind a later one.
    return new Promise((resolve) => this.waiting.push(() => resolve(this.releaser())));
  }

  /** Slots held now (tests, stats). */
  get inUse(): number {
    return this.held;
  }

  /** Calls waiting for a slot now (tests, stats). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Releases once, however often called: the slot goes straight to the longest waiter, else back to the pool. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // Handed over in the same turn: no newcomer can take the slot between the release and the waiter.
      if (next) next();
      else this.held--;
    };
  }
}
