/**
 * A workspace's bucket layouts: how many shards its deliveries are spread over, from when.
 * Changing the count remaps keys, so a change never applies to what is already in flight: each
 * layout takes effect at a time in the future, and a delivery is routed by the layout in force at
 * its own time (`routedAt`, the same on every retry of it), so a retry always meets its receipt.
 */
export interface BucketLayout {
  buckets: number;
  /** From when (ms since the epoch) deliveries are routed by it; 0 for the first. */
  effectiveAt: number;
  /**
   * Keys spread by FNV-1a mixed (platform/hashing.ts `fmix32`): every layout set through the
   * API. The first layout, the SHARD_BUCKETS count before any change, keeps FNV-1a alone, as
   * the shards of that count were filled by it.
   */
  mixed: boolean;
  /**
   * What a delivery is routed by (shardFor.ts `shardOf`): `message` — its message fact, else its
   * dedupe key (the first layout, and every layout set before conversation routing existed);
   * `conversation` — its thread, when it has one (every layout set through the API since).
   * A shard of an older version answers without it: `message`.
   */
  routing: LayoutRouting;
  /**
   * Who added it: `manual` (the PUT; absent from rows of before migration 0027 and from the
   * first, the SHARD_BUCKETS count), or the watch's automatic spread — `busy` (a rise) or `quiet` (a fall).
   */
  reason?: LayoutReason;
  /** The automatic spread's: the busiest share of a shard's capacity the watch saw when it decided (0.83 = 83%). */
  busy?: number;
}

export type LayoutRouting = "message" | "conversation";

export type LayoutReason = "manual" | "busy" | "quiet";

/** Why a layout is added (LayoutKeeperApi.changeBuckets); none: a manual change (the PUT). */
export interface LayoutChange {
  reason: LayoutReason;
  busy?: number;
  /**
   * The automatic spread's guard: the `effectiveAt` of the latest layout its decision saw. When
   * another layout came in between (a PUT), nothing is added: the decision was made on figures that no longer hold.
   */
  latestAt?: number;
}

/** Bucket counts a workspace may be given. */
export const MAX_BUCKETS = 256;

/**
 * How far in the future a new layout takes effect: beyond any Worker's cached copy of the layouts
 * (LAYOUT_CACHE_MS), with room for clock skew between Slack and the edge — and within the 60
 * seconds docs/guides/sharding.md promises.
 */
export const LAYOUT_DELAY_MS = 45_000;

/** How long a Worker instance uses the layouts it read before reading them again. */
export const LAYOUT_CACHE_MS = 30_000;

/** The layout in force at `at`, by the workspace's layouts; SHARD_BUCKETS (`fallback`) by FNV-1a alone without any. */
export function layoutAt(layouts: readonly BucketLayout[], at: number, fallback: number): BucketLayout {
  let inForce: BucketLayout = { buckets: fallback, effectiveAt: 0, mixed: false, routing: "message" };
  for (const layout of layouts) if (layout.effectiveAt <= at) inForce = layout;
  return inForce;
}

/** Every bucket any layout uses: what must be told of a change that concerns the whole workspace. */
export function allBuckets(layouts: readonly BucketLayout[], fallback: number): number {
  return Math.max(fallback, ...layouts.map((layout) => layout.buckets));
}
