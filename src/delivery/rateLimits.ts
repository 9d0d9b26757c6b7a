import { BoundedMap } from "../boundedMap";

/** Rate keys remembered at most; beyond it the least recently blocked are forgotten (one more 429 relearns one). */
export const MAX_RATE_KEYS = 10_000;

/**
 * Remembers, per (workspace, rate key), until when Slack asked us to back off, so the other
 * rows in that bucket wait out Retry-After instead of each collecting its own 429. In memory
 * only: after an eviction the worst case is one more 429 to relearn it.
 */
export class RateLimits {
  private readonly until = new BoundedMap<string, number>(MAX_RATE_KEYS, (until, now) => until <= now);

  blockedUntil(workspace: string, rateKey: string | null, now: number): number | undefined {
    if (rateKey === null) return undefined;
    const key = `${workspace}|${rateKey}`;
    const until = this.until.get(key);
    if (until === undefined) return undefined;
    if (until > now) return until;
    this.until.delete(key);
    return undefined;
  }

  remember(workspace: string, rateKey: string | null, until: number, now = Date.now()): void {
    if (rateKey === null) return;
    const key = `${workspace}|${rateKey}`;
    this.until.set(key, Math.max(until, this.until.get(key) ?? 0), now);
  }
}
