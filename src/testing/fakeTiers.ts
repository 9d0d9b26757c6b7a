/**
 * Slack's rate limits as a FakeSlack enforces them when asked: a method's tier is a number of
 * calls per workspace (token) per minute, counted strictly — at most that many in any 60 s, the
 * floor Slack publishes, so code that passes here passes on Slack — and, when a method's limit
 * names a `burst`, at most that many at once too (a token bucket refilled at the tier's rate, on
 * top of the minute's count); `chat.postMessage` is limited per channel instead, about one a
 * second with short bursts. A call over a limit is answered HTTP 429 with Retry-After (whole
 * seconds until the call would be accepted).
 */

/** A tier with Slack's burst tolerance made strict: `perMinute` in any 60 s, at most `burst` at once. */
export interface BurstLimit {
  perMinute: number;
  burst: number;
}

/** Calls per workspace per minute, by method: Slack's published tiers (Tier 2 is 20, Tier 3 50, Tier 4 100). */
export type TierLimits = Readonly<Record<string, number | BurstLimit>>;

/** The tiers a FakeSlack enforces with `enforceTiers: true`. */
export const SLACK_TIERS: TierLimits = {
  "chat.startStream": 20,
  "chat.stopStream": 20,
  "chat.appendStream": 100,
  "chat.update": 50,
  "chat.delete": 50,
};

/** `chat.postMessage` per channel, as a token bucket: `burst` at once, refilled at `perSecond`. */
export interface PostLimit {
  perSecond: number;
  burst: number;
}

/** Slack's "1 per second per channel, short bursts allowed". */
export const SLACK_POST_LIMIT: PostLimit = { perSecond: 1, burst: 3 };

const MINUTE_MS = 60_000;

export class FakeRateLimits {
  private tiers: TierLimits = {};
  private postLimit?: PostLimit;
  /** Per token and method: when its calls of the last minute came, oldest first. */
  private readonly windows = new Map<string, number[]>();
  private readonly postBuckets = new Map<string, { tokens: number; at: number }>();
  /** Per token and method with a burst: its bucket. */
  private readonly burstBuckets = new Map<string, { tokens: number; at: number }>();

  /** Enforces `tiers`, and Slack's post limit unless one was set. */
  enforceTiers(tiers: TierLimits): void {
    this.tiers = tiers;
    this.postLimit ??= SLACK_POST_LIMIT;
  }

  limitPostsPerChannel(limit: PostLimit): void {
    this.postLimit = limit;
  }

  /** Counts the call; answers the seconds to wait when it is over a limit, else undefined. */
  retryAfter(method: string, token: string, channel: unknown, now: number): number | undefined {
    if (method === "chat.postMessage") return this.overPostLimit(String(channel), now);
    const limit = this.tiers[method];
    if (limit === undefined) return undefined;
    const { perMinute, burst } = typeof limit === "number" ? { perMinute: limit, burst: undefined } : limit;
    const key = `${token} ${method}`;
    const window = (this.windows.get(key) ?? []).filter((at) => at > now - MINUTE_MS);
    this.windows.set(key, window);
    const overWindow = window.length >= perMinute ? Math.max(1, Math.ceil((window[0]! + MINUTE_MS - now) / 1000)) : undefined;
    const overBurst =
      burst === undefined ? undefined : takeToken(this.burstBuckets, key, { perSecond: perMinute / 60, burst }, now, !overWindow);
    if (overWindow !== undefined || overBurst !== undefined) return Math.max(overWindow ?? 0, overBurst ?? 0);
    window.push(now);
    return undefined;
  }

  /** Takes a token of the channel's bucket; returns the seconds to wait when there is none. */
  private overPostLimit(channel: string, now: number): number | undefined {
    const limit = this.postLimit;
    return limit && takeToken(this.postBuckets, channel, limit, now, true);
  }
}

/** Takes a token of `key`'s bucket (unless `take` is false: only looks); returns the seconds to wait when there is none. */
function takeToken(
  buckets: Map<string, { tokens: number; at: number }>,
  key: string,
  limit: PostLimit,
  now: number,
  take: boolean,
): number | undefined {
  const bucket = buckets.get(key) ?? { tokens: limit.burst, at: now };
  bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
  bucket.at = now;
  buckets.set(key, bucket);
  if (bucket.tokens >= 1) {
    if (take) bucket.tokens -= 1;
    return undefined;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
}
