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
 * run time (rpc/bucketLayouts.ts) spread by `fmix32(fnv1a32(key))`.
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
