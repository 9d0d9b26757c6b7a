import { BoundedMap } from "../platform/boundedMap";
import { type BucketLayout, LAYOUT_CACHE_MS } from "../rpc/bucketLayouts";
import type { CoordinatorEnv } from "../rpc/env";
import { layoutKeeperStub } from "../rpc/shardStub";

/** Per Worker instance: each workspace's layouts as read, and when (those too old to use go first). */
const cached = new BoundedMap<string, { layouts: BucketLayout[]; readAt: number }>(
  10_000,
  (entry, now) => now - entry.readAt >= LAYOUT_CACHE_MS,
);
/** Reads in progress, so a burst of one workspace's deliveries asks once. */
const reading = new Map<string, Promise<BucketLayout[]>>();

/**
 * A workspace's bucket layouts, as its bucket 0 keeps them, read at most once per LAYOUT_CACHE_MS
 * per Worker instance. A new layout takes effect LAYOUT_DELAY_MS after it was set — later than
 * any copy read before it expires — so routing by a cached copy is never wrong. When the read
 * fails, this throws (the delivery is answered 503 and Slack retries): routing by a copy older
 * than that bound could meet a layout it does not know.
 */
export async function layoutsOf(env: CoordinatorEnv, workspace: string, now: number): Promise<BucketLayout[]> {
  const known = cachedLayouts(workspace, now);
  if (known) return known;
  let read = reading.get(workspace);
  if (!read) {
    read = Promise.resolve(layoutKeeperStub(env.SHARD, workspace).bucketLayouts()).then((layouts) => {
      cached.set(workspace, { layouts, readAt: now }, now);
      return layouts;
    });
    reading.set(workspace, read);
    void read.finally(() => reading.delete(workspace)).catch(() => {});
  }
  return read;
}

/** The layouts this instance read within LAYOUT_CACHE_MS, without waiting (no timer, no promise), or undefined. */
export function cachedLayouts(workspace: string, now: number): BucketLayout[] | undefined {
  const entry = cached.get(workspace);
  return entry && now - entry.readAt < LAYOUT_CACHE_MS ? entry.layouts : undefined;
}

/** After a change made through this instance: read again at the next delivery. */
export function forgetLayouts(workspace: string): void {
  cached.delete(workspace);
}
