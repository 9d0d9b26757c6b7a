import { flag, positive } from "./read";

/**
 * The automatic spread's settings (docs/guides/sharding.md "Automatic spread"), rows of the
 * settings table (table.ts): read by the watch, which decides, leniently (spread.ts).
 */
export const SPREAD_SETTINGS = {
  SPREAD_AUTOMATIC: {
    part: "spread",
    read: flag(false),
    doc: "`true`: a workspace whose shards run past `SPREAD_BUSY_SHARE` of their capacity gets twice the buckets (a new layout, as the `PUT` adds), and half again once quiet for `SPREAD_COOL_DOWN_MINUTES`; never below a count set by the `PUT`. Off by default: it changes routing in production, and what one shard carries depends on your handlers — set `SPREAD_SHARD_RATE` first ([Automatic spread](../guides/sharding.md#automatic-spread))",
  },
  SPREAD_SHARD_RATE: {
    part: "spread",
    read: positive(250),
    doc: "the deliveries per second one shard carries with its replies keeping up: a shard's busy share is its ingests per second over this (or, in a minute of at least 60 ingests, its ack p90 over `ACK_BUDGET_MS`, whichever is higher). Measure yours (`npm run bench`); Cloudflare's soft guidance is about 1,000 requests per second per Durable Object, and a delivery is at least two (its ingest, its attempt)",
  },
  SPREAD_BUSY_SHARE: {
    part: "spread",
    read: positive(0.7, "number"),
    doc: "the busy share (of `SPREAD_SHARD_RATE`) at which a shard's workspace spreads; at most `1`. Quiet is below half of it on every shard of the workspace: halving the count then keeps each shard below it",
  },
  SPREAD_MAX_BUCKETS: {
    part: "spread",
    read: positive(16),
    doc: "the most buckets the automatic spread gives a workspace (at most 256); a count set by the `PUT` may be higher",
  },
  SPREAD_COOL_DOWN_MINUTES: {
    part: "spread",
    read: positive(15),
    doc: "after any layout takes effect, the automatic spread changes nothing for this long; and a workspace falls back only once every shard of it has been quiet for this long",
  },
} as const;
