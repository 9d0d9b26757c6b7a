/** A lease as this instance last wrote or found it: its token and when it runs out. */
export interface KnownLease {
  token: string;
  expiresAt: number;
}

/**
 * The outbox's leased rows as this shard instance knows them, so that no statement has to scan the
 * outbox to find a lease that ran out (migrations/0016_due_rows.sql: leased rows are outside the
 * index of waiting rows, and a row's first lease writes no index entry). Every lease this instance
 * writes is noted here and forgotten when its row settles; the leases of an instance that died
 * are found once by the outbox's walk (outboxWalk.ts). A hint, not the truth: every use is checked
 * against the row by its key, so an entry left behind (a row parked or discarded in bulk) costs
 * one key look-up and is then forgotten.
 */
export class OutboxLeases {
  private readonly byKey = new Map<string, KnownLease>();

  /** A lease was written (a claim, an enqueue's, a renewal) or found on a row. */
  noted(key: string, lease: KnownLease): void {
    this.byKey.set(key, lease);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The row settled, or is known to be held no more. */
  forgotten(key: string): void {
    this.byKey.delete(key);
  }

  /** Keys whose lease ran out by `now`, the longest-expired first, at most `limit`. */
  expired(now: number, limit: number): string[] {
    const out: [string, number][] = [];
    for (const [key, lease] of this.byKey) if (lease.expiresAt <= now) out.push([key, lease.expiresAt]);
    return out
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([key]) => key);
  }

  /** Every key noted (rows leased out, as far as this instance knows). */
  keys(): string[] {
    return [...this.byKey.keys()];
  }

  /** Keys `token` holds, as noted. */
  heldBy(token: string): string[] {
    const out: string[] = [];
    for (const [key, lease] of this.byKey) if (lease.token === token) out.push(key);
    return out;
  }

  /** When the first noted lease runs out, or null. */
  earliestExpiry(): number | null {
    let earliest: number | null = null;
    for (const { expiresAt } of this.byKey.values()) if (earliest === null || expiresAt < earliest) earliest = expiresAt;
    return earliest;
  }
}
