import type { MeteredSql } from "../platform/sql/meteredSql";
import {
  type BucketLayout,
  LAYOUT_DELAY_MS,
  type LayoutChange,
  type LayoutReason,
  type LayoutRouting,
} from "../rpc/bucketLayouts";

type StoredLayout = {
  effective_at: number;
  buckets: number;
  mixed: number;
  routing: LayoutRouting;
  reason: LayoutReason | null;
  busy: number | null;
};

/** All SQL touching `bucket_layouts` (a workspace's bucket 0 keeps them). */
export class LayoutStore {
  constructor(private readonly sql: MeteredSql) {}

  list(): BucketLayout[] {
    return this.sql
      .all<StoredLayout>("SELECT effective_at, buckets, mixed, routing, reason, busy FROM bucket_layouts ORDER BY effective_at")
      .map((row) => ({
        effectiveAt: row.effective_at,
        buckets: row.buckets,
        mixed: row.mixed === 1,
        routing: row.routing,
        reason: row.reason ?? "manual",
        ...(row.busy === null ? {} : { busy: row.busy }),
      }));
  }

  /**
   * Adds a layout of `buckets`, effective LAYOUT_DELAY_MS from `now` (and after any layout still
   * to come), spreading keys by the mixed hash and routing by conversation. The first change
   * records `shardBuckets` — the count in force until then, as no layout existed — as effective
   * from 0 and routed by message, so a later change of SHARD_BUCKETS cannot rewrite the past.
   * Asking for the count the latest layout already has adds nothing — unless that layout routes
   * by message over more than one bucket: the same count by conversation is then the move to
   * conversation routing. An automatic change (`change.latestAt`) made on layouts that have
   * changed since adds nothing either. Returns the layouts.
   */
  change(buckets: number, shardBuckets: number, now: number, change: LayoutChange = { reason: "manual" }): BucketLayout[] {
    const layouts = this.list();
    if (change.latestAt !== undefined && (layouts.at(-1)?.effectiveAt ?? 0) !== change.latestAt) return layouts;
    if (layouts.length === 0) {
      this.sql.all(
        "INSERT INTO bucket_layouts (effective_at, buckets, mixed, routing) VALUES (0, ?, 0, 'message')",
        shardBuckets,
      );
      layouts.push({ effectiveAt: 0, buckets: shardBuckets, mixed: false, routing: "message", reason: "manual" });
    }
    const latest = layouts[layouts.length - 1]!;
    if (latest.buckets === buckets && (latest.routing === "conversation" || buckets === 1)) return layouts;
    const effectiveAt = Math.max(now + LAYOUT_DELAY_MS, latest.effectiveAt + 1);
    const { reason, busy } = change;
    this.sql.all(
      "INSERT INTO bucket_layouts (effective_at, buckets, mixed, routing, reason, busy) VALUES (?, ?, 1, 'conversation', ?, ?)",
      effectiveAt,
      buckets,
      reason,
      busy ?? null,
    );
    const added: BucketLayout = { effectiveAt, buckets, mixed: true, routing: "conversation", reason };
    return [...layouts, busy === undefined ? added : { ...added, busy }];
  }
}
