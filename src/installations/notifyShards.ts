import { describeError, log } from "../platform/log";
import { allBuckets } from "../rpc/bucketLayouts";
import type { CoordinatorEnv } from "../rpc/env";
import type { InstallationChange } from "../rpc/installations";
import { shardName } from "../rpc/shardFor";
import { layoutKeeperStub, workspaceShardStub } from "../rpc/shardStub";
import { edgeSettings } from "../settings";

/**
 * Tells every shard of a workspace that its installation changed, so each drops what it cached
 * about it at once (and parks its waiting effects when the installation is gone) instead of
 * learning it when the cache ages out. Best effort: a shard that cannot be reached now learns
 * it from its cache's age bound (src/installations/installationCache.ts).
 */
export async function notifyShards(env: CoordinatorEnv, workspace: string, change: InstallationChange): Promise<number> {
  const { shardBuckets } = edgeSettings(env);
  // Every bucket any layout of the workspace uses (a resharded workspace has older ones with work).
  let buckets = shardBuckets;
  try {
    buckets = allBuckets(await layoutKeeperStub(env.SHARD, workspace).bucketLayouts(), shardBuckets);
  } catch (error) {
    log("warn", "bucket layouts not read; telling SHARD_BUCKETS shards", { workspace, error: describeError(error) });
  }
  const answers = await Promise.allSettled(
    Array.from({ length: buckets }, (_, bucket) =>
      workspaceShardStub(env.SHARD, shardName(workspace, bucket)).installationChanged(workspace, change),
    ),
  );
  let parked = 0;
  for (const answer of answers) {
    if (answer.status === "fulfilled") parked += answer.value;
    else log("warn", "shard not told of installation change", { workspace, error: describeError(answer.reason) });
  }
  return parked;
}
