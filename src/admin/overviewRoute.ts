import { mapConcurrent } from "../delivery/mapConcurrent";
import type { CoordinatorEnv } from "../env";
import { Rejection } from "../errors";
import { describeError, log } from "../log";
import { fleetOverview, type ShardPart } from "../metrics/fleetOverview";
import { METRICS_RETENTION_MINUTES } from "../metrics/metricStore";
import { shardStub } from "../routing/shardStub";
import { WATCH } from "../watch/Watch";

/** Shards asked at once; each answer is one small read. */
const FAN_OUT = 16;

/**
 * GET /admin/api/overview?minutes=60 (README "Operations API"): the fleet from the watch's
 * registry of shards and each shard's metric minutes, with the guard's window. A shard that does
 * not answer is left out and named in `unreachable`.
 */
export async function overview(request: Request, env: CoordinatorEnv): Promise<Response> {
  const raw = new URL(request.url).searchParams.get("minutes") ?? "60";
  const minutes = Number(raw);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > METRICS_RETENTION_MINUTES)
    throw new Rejection(400, `minutes must be an integer from 1 to ${METRICS_RETENTION_MINUTES}, got ${JSON.stringify(raw)}`);
  const now = Date.now();
  const fromMinute = Math.floor(now / 60_000) + 1 - minutes;
  const watch = shardStub(env.SHARD, WATCH);
  const [registered, guard, alerts] = await Promise.all([watch.shards(fromMinute * 60_000), watch.health(), watch.alertState()]);
  const parts: ShardPart[] = [];
  const unreachable: string[] = [];
  await mapConcurrent(registered, FAN_OUT, async (entry) => {
    try {
      const metrics = await shardStub(env.SHARD, entry.shard).metricsSince(fromMinute);
      parts.push({
        ...entry,
        minutes: metrics.live ? [...metrics.minutes, metrics.live] : metrics.minutes,
        outbox: metrics.outbox,
      });
    } catch (error) {
      unreachable.push(entry.shard);
      log("warn", "overview: shard did not answer", { shard: entry.shard, error: describeError(error) });
    }
  });
  parts.sort((a, b) => a.shard.localeCompare(b.shard));
  const { span_minutes: _, ...window } = guard;
  return Response.json({ ...fleetOverview(parts, minutes, now), guard: window, alerts, unreachable });
}
