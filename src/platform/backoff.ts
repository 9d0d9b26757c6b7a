export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** Attempts before a row is parked. */
  maxAttempts: number;
}

/**
 * Delay before attempt `attempts + 1`: exponential from `baseMs`, capped at `maxMs`, plus up
 * to 20 % jitter upwards (never shorter, so the schedule's total span is a guaranteed minimum),
 * and never sooner than Slack's Retry-After.
 */
export function retryDelayMs(policy: BackoffPolicy, attempts: number, retryAfterMs = 0, random = Math.random()): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.max(Math.round(exponential * (1 + 0.2 * random)), retryAfterMs);
}

/** The shortest time a row can spend retrying before it is parked (jitter only adds to it). */
export function minimumRetrySpanMs(policy: BackoffPolicy): number {
  let total = 0;
  for (let attempts = 1; attempts < policy.maxAttempts; attempts++) total += retryDelayMs(policy, attempts, 0, 0);
  return total;
}
