import { BoundedMap } from "./boundedMap";

/** A response's `Retry-After` (seconds) in milliseconds, or undefined when absent or not a number of seconds. */
export function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get("retry-after");
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Rate keys a Retry-After memory keeps at most; beyond it the least recently blocked are forgotten (one more 429 relearns one). */
export const MAX_RATE_KEYS = 10_000;

/** A rate key within its workspace, as Retry-After memories and pacers key it: Slack limits per workspace. */
export function workspaceRateKey(workspace: string, rateKey: string): string {
  return `${workspace}|${rateKey}`;
}

/**
 * Until when Slack asked us to back off, per workspace rate key: what a 429's Retry-After leaves
 * behind. The delivery loop asks it before an attempt, so the other rows under that rate key wait
 * it out instead of each collecting its own 429; a pacer asks it before giving a slot. In memory
 * only: after an eviction the worst case is one more 429 to relearn it.
 */
export class RetryAfterMemory {
  private readonly until: BoundedMap<string, number>;

  constructor(max = MAX_RATE_KEYS) {
    this.until = new BoundedMap<string, number>(max, (until, now) => until <= now);
  }

  /** The time `key` may be called again, or undefined when it need not wait. */
  blockedUntil(key: string, now: number): number | undefined {
    const until = this.until.get(key);
    if (until === undefined) return undefined;
    if (until > now) return until;
    this.until.delete(key);
    return undefined;
  }

  /** Slack said `key` waits until `until`; the later of two answers wins. */
  remember(key: string, until: number, now: number): void {
    this.until.set(key, Math.max(until, this.until.get(key) ?? 0), now);
  }
}
