/**
 * The watch's name and the shapes its RPC surface (WatchApi, rpc/shard.ts) takes and answers:
 * a name and types only, so callers and the watch's own stores share them without importing the watch.
 */

/** The watch's shard name: never a workspace shard's, which are "{workspace}/{bucket}". */
export const WATCH = "watch";

/**
 * Acks the edge gave Slack, per minute (ms since the epoch / 60 000) and cause: "2xx" or the
 * status for a request whose signature verified, else UNVERIFIED_MISMATCH or UNVERIFIED_OTHER.
 */
export type AckTally = Record<number, Record<string, number>>;

/** The rolling window as GET /admin/health shows it (DESIGN §3). */
export interface HealthWindow {
  window_minutes: number;
  /** The acks in the window (`answered`: the endpoint's field, kept though the code says ack). */
  answered: number;
  failed: number;
  /** Failed acks by cause: the status Slack got ("401", "503", …). */
  by_cause: Record<string, number>;
  ratio: number;
  /** Acks to requests whose signature did not verify that the guard does not judge now (watch/judgedAcks.ts). */
  unverified: number;
  /** Minutes from the window's first ack to now (at least 1): "in the last N minutes". */
  span_minutes: number;
}

/** A notice from Slack that it stopped sending a workspace's events for a minute. */
export interface AppRateLimited {
  workspace: string;
  /** Slack's `minute_rate_limited`: the minute's start, in seconds since the epoch. */
  minute: number;
}

/** What GET /admin/health says of them. */
export interface AppRateLimitedSummary {
  last_24h: number;
  latest: (AppRateLimited & { received_at: number }) | null;
}

/** A shard the watch knows of (docs/guides/operations.md "Operations console"). */
export interface RegisteredShard {
  shard: string;
  workspace: string;
  bucket: string;
  firstSeen: number;
  lastActive: number;
  /** The SQLite size in bytes the shard last reported (null: none yet). */
  databaseSize?: number | null;
  /** The busy share (of its capacity, SPREAD_SHARD_RATE) of the last minute it reported, and that minute (null: none yet). */
  busyShare?: number | null;
  busyMinute?: number | null;
}

/**
 * A shard's load in its last metrics minute, as it reports it to the watch with the minute
 * (WatchApi.shardSeen): what the automatic spread judges (watch/spreadDecision.ts `busyShare`).
 */
export interface ShardLoad {
  /** The minute (minutes since the epoch). */
  minute: number;
  /** Deliveries it ingested in it: accepted, duplicates and ignored — each a turn of the shard. */
  ingests: number;
  /** Its acks' p90 in it (ms, an upper estimate: histogram.ts), from the edge receiving to the commit; null: none. */
  ackP90Ms: number | null;
}

/** A destination failing now, as the console shows it. */
export interface OpenStreak {
  label: string;
  failures: number;
  alerted: number;
  lastError: string | null;
  lastKey: string | null;
  lastFailedAt: number;
}

/** The alerts' state for the console (GET /admin/api/overview `alerts`). */
export interface AlertState {
  /** Whether ALERT_WEBHOOK_URL is set (else alerts are only logged). */
  alertsSent: boolean;
  guard: { alerting: boolean; lastAlertAt: number | null };
  /** Destinations failing now (open streaks), the longest first. */
  failing: OpenStreak[];
}
