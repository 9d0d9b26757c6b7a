import { log } from "../platform/log";
import type { Schema } from "../platform/sql/schema";
import { LayoutStore } from "../recording/layoutStore";
import type { BucketLayout } from "../rpc/bucketLayouts";
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

  changeBuckets(buckets: number, shardBuckets: number): BucketLayout[] {
    this.schema.migrate();
    const layouts = this.layouts.change(buckets, shardBuckets, Date.now());
    log("info", "bucket layout changed", { shard: this.shard, buckets, layouts: JSON.stringify(layouts) });
    return layouts;
  }
}
