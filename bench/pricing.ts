/**
 * Cloudflare's published list prices (Workers Paid plan, Standard usage model), as read on the
 * dates below from the pages named. Each figure is the price beyond the plan's monthly
 * allowance (the allowance is kept beside it); the $5 a month subscription is left out.
 */
export const WORKERS_PRICES = {
  readOn: "2026-12-06",
  source: "https://developers.cloudflare.com/workers/platform/pricing/",
  /** Inbound requests (subrequests are not billed; the bench counts a Cron Trigger invocation as one): 10 million a month included, then $0.30 per million. */
  requestsUsdPerMillion: 0.3,
  requestsIncludedPerMonth: 10_000_000,
  /** CPU time: 30 million CPU-ms a month included, then $0.02 per million CPU-ms. No charge for duration. */
  cpuMsUsdPerMillion: 0.02,
  cpuMsIncludedPerMonth: 30_000_000,
} as const;

/**
 * Durable Objects, SQLite storage backend, as read from
 * https://developers.cloudflare.com/durable-objects/platform/pricing/ (2026-11-30, again 2026-12-06).
 */
export const DURABLE_OBJECTS_PRICES = {
  readOn: "2026-12-06",
  source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  /** Rows written: first 50 million per month included, then $1.00 per million. Each setAlarm() is one row; deletes count. */
  rowsWrittenUsdPerMillion: 1.0,
  rowsWrittenIncludedPerMonth: 50_000_000,
  /** Rows read: first 25 billion per month included, then $0.001 per million. */
  rowsReadUsdPerMillion: 0.001,
  /** Stored data: 5 GB-month included, then $0.20 per GB-month. */
  storageUsdPerGbMonth: 0.2,
  /** Durable Object requests (each RPC method call on a stub, each HTTP request, each alarm invocation): 1 million included, then $0.15 per million. */
  requestsUsdPerMillion: 0.15,
  /** Duration: wall-clock time while active (or idle but unable to hibernate): 400,000 GB-s included, then $12.50 per million GB-s. */
  durationUsdPerMillionGbS: 12.5,
  /** Duration bills the 128 MB an object is allocated, whatever it uses. */
  memoryGb: 0.128,
} as const;

/** D1, as read from https://developers.cloudflare.com/d1/platform/pricing/ . No charge for requests, hours or idle time. */
export const D1_PRICES = {
  readOn: "2026-12-06",
  source: "https://developers.cloudflare.com/d1/platform/pricing/",
  /** Rows written (INSERT, UPDATE, DELETE; an index adds a row when a write touches its column): 50 million a month included, then $1.00 per million. */
  rowsWrittenUsdPerMillion: 1.0,
  /** Rows read (rows a query scans): 25 billion a month included, then $0.001 per million. */
  rowsReadUsdPerMillion: 0.001,
  /** Storage: first 5 GB included, then $0.75 per GB-month. */
  storageUsdPerGbMonth: 0.75,
} as const;

export const PRICES = { workers: WORKERS_PRICES, durableObjects: DURABLE_OBJECTS_PRICES, d1: D1_PRICES } as const;
export type Prices = typeof PRICES;
