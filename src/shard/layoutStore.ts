import { type BucketLayout, LAYOUT_DELAY_MS } from "../routing/bucketLayouts";
import type { MeteredSql } from "./meteredSql";

/** All SQL touching `bucket_layouts` (a workspace's bucket 0 keeps them). */
export class LayoutStore {
  constructor(private readonly sql: MeteredSql) {}

  list(): BucketLayout[] {
    return this.sql
      .all<{ effective_at: number; buckets: number }>("SELECT effective_at, buckets FROM bucket_layouts ORDER BY effective_at")
      .map((row) => ({ effectiveAt: row.effective_at, buckets: row.buckets }));
  }

  /**
   * Adds a layout of `buckets`, effective LAYOUT_DELAY_MS from `now` (and after any layout still
   * to come). The first change records `current` — the count in force until then — as effective
   * from 0, so a later change of SHARD_BUCKETS cannot rewrite the past. Asking for the count the
   * latest layout already has adds nothing. Returns the layouts.
   */
  change(buckets: number, current: number, now: number): BucketLayout[] {
    const layouts = this.list();
    if (layouts.length === 0) {
      this.sql.all("INSERT INTO bucket_layouts (effective_at, buckets) VALUES (0, ?)", current);
      layouts.push({ effectiveAt: 0, buckets: current });
    }
    const latest = layouts[layouts.length - 1]!;
    if (latest.buckets === buckets) return layouts;
    const effectiveAt = Math.max(now + LAYOUT_DELAY_MS, latest.effectiveAt + 1);
    this.sql.all("INSERT INTO bucket_layouts (effective_at, buckets) VALUES (?, ?)", effectiveAt, buckets);
    return [...layouts, { effectiveAt, buckets }];
  }
}
