import type { OutboxStatus } from "../rpc/shard";

/**
 * How many rows the outbox holds by status, kept as rows change instead of counted by a scan
 * (which at a million waiting rows blocked every ingest behind it). An instance learns the counts
 * it inherits from its walk (outboxWalk.ts), which reads the outbox in key order: a change to a row
 * the walk has already passed is counted here, a change to one it has not reached yet is seen by
 * the walk when it gets there — so each row is counted once, whatever the order.
 */
export class OutboxCounts {
  private readonly counts: Record<OutboxStatus, number> = { pending: 0, parked: 0, stopped: 0 };

  /** `passed`: whether the walk has read the key's place already (outboxWalk.ts). */
  constructor(private readonly passed: (key: string) => boolean) {}

  /** The walk read a row. */
  walked(status: OutboxStatus): void {
    this.counts[status]++;
  }

  /** Rows among `keys` entered (`to`), left (`from`), or moved between statuses. */
  moved(keys: readonly string[], from: OutboxStatus | null, to: OutboxStatus | null): void {
    for (const key of keys) {
      if (!this.passed(key)) continue;
      if (from !== null) this.counts[from]--;
      if (to !== null) this.counts[to]++;
    }
  }

  get byStatus(): Record<OutboxStatus, number> {
    return { ...this.counts };
  }
}
