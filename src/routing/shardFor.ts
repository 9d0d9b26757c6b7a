import type { Inbound } from "../inbound/types";

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
 * enterprise id for org-wide installs) times `buckets` hash buckets of the key. Pure and
 * stable: every retry of one event maps to the same name. Changing `buckets` remaps keys, so
 * change it only when no Slack retries are in flight (see README).
 */
export function shardFor(workspace: string, routingKey: string, buckets: number): string {
  return shardName(workspace, buckets > 1 ? fnv1a32(routingKey) % buckets : 0);
}

/** The shard that owns a delivery. */
export function shardOf(inbound: Inbound, buckets: number): string {
  return shardFor(inbound.workspace, routingKeyOf(inbound), buckets);
}
