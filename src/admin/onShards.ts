import { describeError, log } from "../platform/log";
import { mapConcurrent } from "../platform/mapConcurrent";

/** Shards asked at once by a fleet-wide operation; each answer is one small read or write. */
const FAN_OUT = 16;

/**
 * Runs `work` on each named shard, FAN_OUT at a time, for the fleet-wide operations API: the
 * answers by shard, and the shards that did not answer (logged, and named to the caller).
 */
export async function onShards<T>(
  shards: readonly string[],
  work: (shard: string) => Promise<T>,
): Promise<{ results: Array<[string, T]>; unreachable: string[] }> {
  const results: Array<[string, T]> = [];
  const unreachable: string[] = [];
  await mapConcurrent(shards, FAN_OUT, async (shard) => {
    try {
      results.push([shard, await work(shard)]);
    } catch (error) {
      unreachable.push(shard);
      log("warn", "fleet operation: shard did not answer", { shard, error: describeError(error) });
    }
  });
  return { results, unreachable };
}
