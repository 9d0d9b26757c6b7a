import { fleetOverview, type ShardMinutes } from "../metrics/fleetOverview";
import { METRICS_RETENTION_MINUTES } from "../metrics/metricStore";
import { Rejection } from "../platform/errors";
import { minuteOf } from "../platform/minutes";
import type { CoordinatorEnv } from "../rpc/env";
import { watchStub, workspaceShardStub } from "../rpc/shardStub";
import { bucketChanges } from "./bucketChanges";
import { onShards } from "./onShards";

/**
 * GET /admin/api/overview?minutes=60 (docs/guides/operations.md "Operations API"): the fleet from the watch's
 * registry of shards and each shard's metric minutes, with the guard's window. A shard that does
 * not answer is left out and named in `unreachable`.
 */
export async function overview(request: Request, env: CoordinatorEnv): Promise<Response> {
  const raw = new URL(request.url).searchParams.get("minutes") ?? "60";
  const minutes = Number(raw);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > METRICS_RETENTION_MINUTES)
    throw new Rejection(400, `minutes must be an integer from 1 to ${METRICS_RETENTION_MINUTES}, got ${JSON.stringify(raw)}`);
  const now = Date.now();
  const fromMinute = minuteOf(now) + 1 - minutes;
  const watch = watchStub(env.SHARD);
  const [registered, guard, alerts] = await Promise.all([watch.shards(fromMinute * 60_000), watch.health(), watch.alertState()]);
  const [{ results, unreachable }, buckets] = await Promise.all([
    onShards(
      registered.map((entry) => entry.shard),
      async (shard) => workspaceShardStub(env.SHARD, shard).metricsSince(fromMinute),
    ),
    bucketChanges(env, registered),
  ]);
  const byName = new Map(registered.map((entry) => [entry.shard, entry]));
  const parts: ShardMinutes[] = results.map(([shard, metrics]) => ({
    ...byName.get(shard)!,
    minutes: [...metrics.minutes, ...(metrics.unwritten ?? []), ...(metrics.live ? [metrics.live] : [])],
    outbox: metrics.outbox,
    // Now, from the shard; else as it last told the watch (a shard of an earlier version).
    databaseSize: metrics.databaseSize ?? byName.get(shard)?.databaseSize ?? null,
  }));
  parts.sort((a, b) => a.shard.localeCompare(b.shard));
  const { span_minutes: _, ...window } = guard;
  const missing = [...new Set([...unreachable, ...buckets.unreachable])];
  return Response.json({
    ...fleetOverview(parts, minutes, now),
    guard: window,
    alerts,
    buckets: buckets.changes,
    unreachable: missing,
  });
}
