/**
 * Cloudflare's published Durable Objects prices used to cost an event (Workers Paid plan,
 * SQLite storage backend), as read on the date below from
 * https://developers.cloudflare.com/durable-objects/platform/pricing/ .
 */
export const DURABLE_OBJECTS_PRICES = {
  readOn: "2026-11-30",
  source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  /** Rows written: first 50 million per month included, then $1.00 per million. Each setAlarm() is one row; deletes count. */
  rowsWrittenUsdPerMillion: 1.0,
  rowsWrittenIncludedPerMonth: 50_000_000,
  /** Rows read: first 25 billion per month included, then $0.001 per million. */
  rowsReadUsdPerMillion: 0.001,
  /** Stored data: 5 GB-month included, then $0.20 per GB-month. */
  storageUsdPerGbMonth: 0.2,
  /** Durable Object requests (each RPC call, each alarm invocation): 1 million included, then $0.15 per million. */
  requestsUsdPerMillion: 0.15,
} as const;
