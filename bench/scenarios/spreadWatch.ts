import type { SeenLayout } from "../report/spreadPhases";
import { ADMIN_TOKEN } from "../subjects";

/** One reading of `GET /admin/workspaces/{id}/buckets`: seconds into the load, the count in force, the next. */
export interface BucketReading {
  atS: number;
  buckets: number;
  next: number | null;
}

interface BucketsAnswer {
  buckets: number;
  next: { buckets: number } | null;
  layouts: Array<{ buckets: number; effective_at: string; reason?: string; busy?: number }>;
}

async function admin<T>(origin: URL, path: string): Promise<T> {
  const response = await fetch(new URL(path, origin), {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The workspace's layouts as the admin API shows them (docs/guides/sharding.md). */
export async function layoutsOf(
  origin: URL,
  workspace: string,
): Promise<{ inForce: number; next: number | null; layouts: SeenLayout[] }> {
  const answer = await admin<BucketsAnswer>(origin, `/admin/workspaces/${workspace}/buckets`);
  return {
    inForce: answer.buckets,
    next: answer.next?.buckets ?? null,
    layouts: answer.layouts.map((layout) => ({
      buckets: layout.buckets,
      effectiveAt: Date.parse(layout.effective_at),
      reason: layout.reason ?? "manual",
      ...(layout.busy === undefined ? {} : { busy: layout.busy }),
    })),
  };
}

/** Each of the workspace's shards over the last `minutes`: deliveries accepted, and its outbox now (GET /admin/api/overview). */
export async function shardsOf(
  origin: URL,
  workspace: string,
  minutes: number,
): Promise<Array<{ shard: string; accepted: number; outboxPending: number }>> {
  const answer = await admin<{ shards: Array<{ shard: string; workspace: string; accepted: number; outboxPending: number }> }>(
    origin,
    `/admin/api/overview?minutes=${minutes}`,
  );
  return answer.shards
    .filter((shard) => shard.workspace === workspace)
    .map(({ shard, accepted, outboxPending }) => ({ shard, accepted, outboxPending }));
}

/** Reads the bucket count every `everyMs` until stopped; a failed reading is skipped (the runtime is busy, not gone). */
export function watchBuckets(origin: URL, workspace: string, since: number, everyMs: number) {
  const readings: BucketReading[] = [];
  let stopped = false;
  let failed = 0;
  let latest: SeenLayout[] = [];
  const loop = (async () => {
    while (!stopped) {
      try {
        const { inForce, next, layouts } = await layoutsOf(origin, workspace);
        latest = layouts;
        const atS = Math.round((Date.now() - since) / 1000);
        const last = readings.at(-1);
        if (!last || last.buckets !== inForce || last.next !== next)
          console.log(`  +${atS} s: ${inForce} bucket(s)${next ? `, ${next} next` : ""}`);
        readings.push({ atS, buckets: inForce, next });
      } catch {
        // Overloaded: the admin call waited past its timeout (bucket 0 keeps the layouts). The next reading tells.
        failed++;
      }
      await new Promise((done) => setTimeout(done, everyMs));
    }
  })();
  return {
    readings,
    /** Readings that got no answer within 10 s. */
    failed: () => failed,
    /** The layouts as last read. */
    layouts: () => latest,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
