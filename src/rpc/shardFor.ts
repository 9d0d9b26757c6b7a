import { waitClickOf } from "../app/waits";
import { conversationStartedAt } from "../inbound/conversation";
import type { Inbound } from "../inbound/types";
import { fmix32, fnv1a32 } from "../platform/hashing";
import { allBuckets, type BucketLayout, layoutAt } from "./bucketLayouts";

/** A shard's name: its workspace and bucket. The bucket is the last `/`-separated part. */
export function shardName(workspace: string, bucket: number | string): string {
  return `${workspace}/${bucket}`;
}

/**
 * The key a delivery is routed by under message routing: its message fact when it has one, so one
 * message seen as two events (`message` and `app_mention`, two event_ids) meets its twin in one
 * shard; else its dedupe key.
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

/**
 * The shard that records a delivery, by its workspace's layouts (`fallback`: SHARD_BUCKETS without
 * any). The layout in force at the delivery's own time (`routedAt`, else `now`) decides how. By
 * message: its routing key in that layout. By conversation, for a delivery of a thread: the
 * thread's key in the layout in force when the thread began (its root's `ts`), so the root, its
 * replies, its stop and the clicks in it meet in one shard however the count changes later. A
 * root's conversation key is its fact key, so a thread begun under message routing continues in
 * its root's shard. Pure: every retry of a delivery gets the same name, and what was routed by
 * message before a layout routing by conversation took effect is routed as it was. A click on a
 * durable wait's question goes to the shard that holds the wait, which its buttons name — if
 * any of the workspace's layouts has that bucket; a click naming another (forged: no wait was
 * ever asked there) has no shard (undefined), so it never creates one.
 */
export function shardOf(inbound: Inbound, layouts: readonly BucketLayout[], now: number, fallback: number): string | undefined {
  const click = waitClickOf(inbound);
  if (click) return click.bucket < allBuckets(layouts, fallback) ? shardName(inbound.workspace, click.bucket) : undefined;
  const layout = layoutAt(layouts, inbound.routedAt ?? now, fallback);
  const { conversation } = inbound;
  if (layout.routing !== "conversation" || !conversation) {
    return shardFor(inbound.workspace, routingKeyOf(inbound), layout.buckets, layout.mixed);
  }
  const begun = layoutAt(layouts, conversationStartedAt(conversation), fallback);
  return shardFor(inbound.workspace, conversation.key, begun.buckets, begun.mixed);
}
