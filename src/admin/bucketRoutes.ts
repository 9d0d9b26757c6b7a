import { Rejection } from "../platform/errors";
import { forgetLayouts } from "../routing/layoutCache";
import { type BucketLayout, layoutAt, MAX_BUCKETS } from "../rpc/bucketLayouts";
import type { CoordinatorEnv } from "../rpc/env";
import { layoutKeeperStub } from "../rpc/shardStub";
import { edgeSettings } from "../settings";

/** The layouts as the API shows them: each with its routing and ISO time, the count and routing in force now, and the next change. */
function describe(workspace: string, layouts: BucketLayout[], fallback: number, now: number) {
  const next = layouts.find((layout) => layout.effectiveAt > now);
  // A shard of an older version answers without `routing`: its layouts route by message.
  const shown = (layout: BucketLayout) => ({
    buckets: layout.buckets,
    routing: layout.routing ?? "message",
    effective_at: new Date(layout.effectiveAt).toISOString(),
    // Who added it (docs/guides/sharding.md "Automatic spread"); the spread's with the busy share it saw.
    reason: layout.reason ?? "manual",
    ...(layout.busy === undefined ? {} : { busy: layout.busy }),
  });
  const inForce = layoutAt(layouts, now, fallback);
  return {
    workspace,
    buckets: inForce.buckets,
    routing: inForce.routing ?? "message",
    next: next ? shown(next) : null,
    layouts: layouts.map(shown),
  };
}

/** `GET /admin/workspaces/{id}/buckets` and `PUT … {"buckets": n}` (docs/guides/sharding.md). */
export const bucketRoutes = {
  async get(workspace: string, env: CoordinatorEnv): Promise<Response> {
    const { shardBuckets } = edgeSettings(env);
    const layouts = await layoutKeeperStub(env.SHARD, workspace).bucketLayouts();
    return Response.json(describe(workspace, layouts, shardBuckets, Date.now()));
  },

  async put(request: Request, workspace: string, env: CoordinatorEnv): Promise<Response> {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new Rejection(400, 'expected JSON: {"buckets": n}');
    }
    const buckets = (body as { buckets?: unknown } | null)?.buckets;
    if (typeof buckets !== "number" || !Number.isInteger(buckets) || buckets < 1 || buckets > MAX_BUCKETS)
      throw new Rejection(400, `"buckets" must be an integer from 1 to ${MAX_BUCKETS}`);
    const { shardBuckets } = edgeSettings(env);
    const stub = layoutKeeperStub(env.SHARD, workspace);
    const now = Date.now();
    const layouts = await stub.changeBuckets(buckets, shardBuckets);
    forgetLayouts(workspace);
    return Response.json(describe(workspace, layouts, shardBuckets, now));
  },
};
