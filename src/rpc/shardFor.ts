import type { Inbound } from "../inbound/types";
import type { BucketLayout } from "./bucketLayouts";

/**
 * FNV-1a, 32 bit: tiny, deterministic across runtimes and deploys, well spread for ids like
 * Slack's `Ev0ABC…` and trigger ids. Never replace it in place: the mapping must stay stable
 * for Slack's retry horizon, or a retry would land on a shard that has no receipt for it.
 */
export function fnv1a32(text: string, offsetBasis = 0x811c9dc5): number {
  let hash = offsetBasis;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Murmur3's 32-bit finalizer: every input bit moves every output bit. FNV-1a alone, taken modulo
 * a power of two, depends only on the low bits of each character — decimal ids sharing their
 * digits (a channel and a ts from one counter) can all land in one bucket — so layouts set at
 * run time (routing/bucketLayouts.ts) spread by `fmix32(fnv1a32(key))`.
 */
export function fmix32(hash: number): number {
  let h = hash >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

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
 * (routing/bucketLayouts.ts) change it without a dedupe gap.
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
