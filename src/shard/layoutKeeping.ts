import { log } from "../platform/log";
import type { Schema } from "../platform/sql/schema";
import { LayoutStore } from "../recording/layoutStore";
import type { BucketLayout, LayoutChange } from "../rpc/bucketLayouts";
import type { LayoutKeeperApi } from "../rpc/shard";

/** A workspace's bucket 0 keeps its bucket layouts (README "Sharding"); reads on a shard never written create nothing. */
export class LayoutKeeping implements LayoutKeeperApi {
  private readonly layouts: LayoutStore;

  constructor(
    private readonly schema: Schema,
    private readonly shard: string,
  ) {
    this.layouts = new LayoutStore(schema.sql);
  }

  bucketLayouts(): BucketLayout[] {
    return this.schema.migrated ? this.layouts.list() : [];
  }

  changeBuckets(buckets: number, shardBuckets: number, change?: LayoutChange): BucketLayout[] {
    this.schema.migrate();
    const layouts = this.layouts.change(buckets, shardBuckets, Date.now(), change);
    const reason = change?.reason ?? "manual";
    log("info", "bucket layout changed", { shard: this.shard, buckets, reason, layouts: JSON.stringify(layouts) });
    return layouts;
  }
}
