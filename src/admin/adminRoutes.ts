import { type IRequest, Router } from "itty-router";
import type { SlackApp } from "../app/contract";
import { InvalidSetting, Rejection } from "../platform/errors";
import { describeError, log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import type { ShardOperationsApi } from "../rpc/shard";
import { shardName } from "../rpc/shardFor";
import { shardOperationsStub, watchStub } from "../rpc/shardStub";
import { authorizeAdmin } from "./authorizeAdmin";
import { bucketRoutes } from "./bucketRoutes";
import { eventRerun } from "./eventRerun";
import { eventRoutes } from "./eventRoutes";
import { fleetParked } from "./fleetParked";
import { installationRoutes } from "./installationRoutes";
import { manifestRoute } from "./manifestRoute";
import { overview } from "./overviewRoute";

type AdminRequest = IRequest & { params: { workspace: string; bucket: string; key?: string; id?: string } };

/** A path segment, percent-decoded; a malformed escape is the caller's error (400), not ours. */
function segment(raw: string | undefined, what: string): string {
  try {
    return decodeURIComponent(raw ?? "");
  } catch {
    throw new Rejection(400, `malformed percent-encoding in the ${what}`);
  }
}

/**
 * The shard a request addresses. Segments are percent-decoded, so a workspace id containing `/`
 * is addressed as `%2F`. Reads on a shard that was never written create nothing (see Shard).
 */
function shardOf(request: AdminRequest, env: CoordinatorEnv) {
  const { workspace, bucket } = request.params;
  return shardOperationsStub(env.SHARD, shardName(segment(workspace, "workspace"), segment(bucket, "bucket")));
}

const keyOf = (request: AdminRequest) => segment(request.params.key, "key");

type ShardStub = DurableObjectStub<ShardOperationsApi & Rpc.DurableObjectBranded>;

/** One shard's operations under `path`: its counts, its dead-letter queue, replay and discard. */
function shardOperations(
  router: ReturnType<typeof Router<AdminRequest, [CoordinatorEnv, ExecutionContext]>>,
  path: string,
  stubOf: (request: AdminRequest, env: CoordinatorEnv) => ShardStub,
) {
  return router
    .get(path, async (request, env) => Response.json(await stubOf(request, env).stats()))
    .get(`${path}/parked`, async (request, env) => {
      const limit = Number(new URL(request.url).searchParams.get("limit") ?? 100);
      return Response.json(await stubOf(request, env).listParked(Number.isInteger(limit) ? limit : 100));
    })
    .post(`${path}/replay`, async (request, env) => Response.json({ replayed: await stubOf(request, env).replayParked(null) }))
    .post(`${path}/parked/:key/replay`, async (request, env) => {
      const replayed = await stubOf(request, env).replayParked([keyOf(request)]);
      if (replayed === 0) throw new Rejection(404, "no parked effect with that key");
      return Response.json({ replayed });
    })
    .delete(`${path}/parked/:key`, async (request, env) => {
      if ((await stubOf(request, env).discardParked([keyOf(request)])) === 0)
        throw new Rejection(404, "no parked effect with that key");
      return Response.json({ discarded: 1 });
    });
}

/**
 * The operations API (docs/guides/operations.md "Operations API"): a shard's counts, its dead-letter queue,
 * replay and discard — a workspace shard at `/admin/shards/{workspace}/{bucket}`, the watch
 * (whose outbox holds the alerts) at `/admin/watch` — the guard's window, installations, and the
 * app's manifest (`/admin/manifest`).
 */
export function adminRoutes(app: SlackApp) {
  const router = Router<AdminRequest, [CoordinatorEnv, ExecutionContext]>({
    base: "/admin",
    before: [
      async (request, env) => {
        await authorizeAdmin(request, env.ADMIN_TOKEN);
        log("info", "admin request", { method: request.method, path: new URL(request.url).pathname });
      },
    ],
    catch: (error, request) => {
      if (error instanceof Rejection) return error.toResponse();
      if (error instanceof InvalidSetting) {
        log("error", "admin request refused: configuration error", { setting: error.setting, error: describeError(error) });
        // Which setting, and why, is in the log only: the caller may be anyone.
        return new Response("configuration error (see the Worker's log)", { status: 500 });
      }
      log("error", "admin request failed", {
        method: request.method,
        path: new URL(request.url).pathname,
        error: describeError(error),
      });
      return new Response("internal error", { status: 500 });
    },
  });
  shardOperations(router, "/shards/:workspace/:bucket", shardOf);
  shardOperations(router, "/watch", (_request, env) => watchStub(env.SHARD));
  return router
    .get("/health", async (_request, env) => {
      const { span_minutes: _, ...window } = await watchStub(env.SHARD).health();
      return Response.json(window);
    })
    .get("/workspaces/:workspace/buckets", (request, env) =>
      bucketRoutes.get(segment(request.params.workspace, "workspace"), env),
    )
    .put("/workspaces/:workspace/buckets", (request, env) =>
      bucketRoutes.put(request, segment(request.params.workspace, "workspace"), env),
    )
    .get("/api/overview", overview)
    .get("/api/parked", fleetParked.list)
    .post("/api/parked/replay", fleetParked.replay)
    .post("/api/parked/discard", fleetParked.discard)
    .get("/api/events", eventRoutes.list)
    .get("/api/events/:id", (request, env) => eventRoutes.story(request, env, segment(request.params.id, "event id")))
    .post("/api/events/:id/rerun", (request, env) => eventRerun(request, env, app, segment(request.params.id, "event id")))
    .get("/manifest", manifestRoute(app))
    .get("/installations", installationRoutes.list)
    .delete("/installations/:id", (request, env) => installationRoutes.remove(segment(request.params.id, "installation id"), env))
    .all("*", () => new Response("not found", { status: 404 }));
}
