import type { Inbound } from "../inbound/types";
import { fmix32, fnv1a32 } from "../platform/hashing";
import type { BucketLayout } from "./bucketLayouts";

/** A shard's name: its workspace and bucket. The bucket is the last `/`-separated part. */
export function shardName(workspace: string, bucket: number | string): string {
  return `${workspace}/${bucket}`;
}

/**
 * The key a delivery is routed by: its message fact when it has one, so one message seen as two
 * events (`message` and `app_mention`, two event_ids) meets its twin in one shard; else its dedupe key.
 */
export function routingKeyOf(inbound: Inbound): string {
  return inbound.factKey ?? inbound.dedupeKey;
}

/**
 * The name of the shard that owns a routing key: one shard per workspace (team id, or the
 * enterprise id for org-wide installs) times `buckets` hash buckets of the key — by FNV-1a
 * alone (SHARD_BUCKETS, as always), or `mixed` (layouts set at run time). Pure and stable:
 * every retry of one event maps to the same name. Changing `buckets` remaps keys: layouts
 * (bucketLayouts.ts) change it without a dedupe gap.
 */
export function shardFor(workspace: string, routingKey: string, buckets: number, mixed = false): string {
  if (buckets <= 1) return shardName(workspace, 0);
  const hash = fnv1a32(routingKey);
  return shardName(workspace, (mixed ? fmix32(hash) : hash) % buckets);
}

/** The shard that owns a delivery, in `layout`. */
export function shardOf(inbound: Inbound, layout: Pick<BucketLayout, "buckets" | "mixed">): string {
  return shardFor(inbound.workspace, routingKeyOf(inbound), layout.buckets, layout.mixed);
}
