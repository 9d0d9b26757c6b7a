/**
 * FNV-1a, 32 bit: tiny, deterministic across runtimes and deploys, well spread for ids like
 * Slack's `Ev0ABC…` and trigger ids. Never replace it in place: the mapping must stay stable
 * for Slack's retry horizon, or a retry would land on a shard that has no receipt for it.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The name of the shard that owns a delivery: one shard per workspace (team id, or the
 * enterprise id for org-wide installs) times `buckets` hash buckets of the dedupe key.
 * Pure and stable: every retry of one event maps to the same name. Changing `buckets`
 * remaps keys, so change it only when no Slack retries are in flight (see README).
 */
export function shardFor(workspace: string, dedupeKey: string, buckets: number): string {
  const bucket = buckets > 1 ? fnv1a32(dedupeKey) % buckets : 0;
  return `${workspace}/${bucket}`;
}
