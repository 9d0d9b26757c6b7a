import type { BucketLayout } from "../rpc/bucketLayouts";
import type { CoordinatorEnv } from "../rpc/env";
import { layoutKeeperStub } from "../rpc/shardStub";
import type { RegisteredShard } from "../rpc/watch";
import { onShards } from "./onShards";

/** One change of a workspace's bucket count, as the overview shows it (the console: "spread to 4 at 10:42 (busy 83%)"). */
export interface BucketChange {
  buckets: number;
  reason: NonNullable<BucketLayout["reason"]>;
  busy?: number;
  effectiveAt: number;
}

/**
 * GET /admin/api/overview's `buckets`: the count changes of each workspace spread over more than
 * one bucket in the window (a shard of bucket 1 or above is active), read from its bucket 0 —
 * every layout but the first (the count before any change). A bucket 0 that does not answer is
 * left out and named in `unreachable`, as the shards are.
 */
export async function bucketChanges(
  env: CoordinatorEnv,
  registered: readonly RegisteredShard[],
): Promise<{ changes: Array<{ workspace: string; changes: BucketChange[] }>; unreachable: string[] }> {
  const spread = [...new Set(registered.filter((entry) => entry.bucket !== "0").map((entry) => entry.workspace))];
  const { results, unreachable } = await onShards(spread, async (workspace) =>
    layoutKeeperStub(env.SHARD, workspace).bucketLayouts(),
  );
  const changes = results
    .map(([workspace, layouts]) => ({
      workspace,
      changes: layouts.slice(1).map(({ buckets, reason, busy, effectiveAt }) => ({
        buckets,
        reason: reason ?? "manual",
        ...(busy === undefined ? {} : { busy }),
        effectiveAt,
      })),
    }))
    .sort((a, b) => a.workspace.localeCompare(b.workspace));
  return { changes, unreachable: unreachable.map((workspace) => `${workspace}/0`) };
}
