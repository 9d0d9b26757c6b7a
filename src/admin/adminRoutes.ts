import { type IRequest, Router } from "itty-router";
import type { CoordinatorEnv } from "../env";
import { Rejection } from "../errors";
import { describeError, log } from "../log";
import { shardName } from "../routing/shardFor";
import { shardStub } from "../routing/shardStub";
import { WATCH } from "../watch/Watch";
import { authorizeAdmin } from "./authorizeAdmin";
import { installationRoutes } from "./installationRoutes";

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
  return shardStub(env.SHARD, shardName(segment(workspace, "workspace"), segment(bucket, "bucket")));
}

const keyOf = (request: AdminRequest) => segment(request.params.key, "key");

/**
 * The operations API (README "Operations API"): a shard's counts, its dead-letter queue,
 * replay and discard. A shard is addressed as `/admin/shards/{workspace}/{bucket}`.
 */
export function adminRoutes() {
  return Router<AdminRequest, [CoordinatorEnv, ExecutionContext]>({
    base: "/admin",
    before: [
      async (request, env) => {
        await authorizeAdmin(request, env.ADMIN_TOKEN);
        log("info", "admin request", { method: request.method, path: new URL(request.url).pathname });
      },
    ],
    catch: (error, request) => {
      if (error instanceof Rejection) return error.toResponse();
      log("error", "admin request failed", {
        method: request.method,
        path: new URL(request.url).pathname,
        error: describeError(error),
      });
      return new Response("internal error", { status: 500 });
    },
  })
    .get("/shards/:workspace/:bucket", async (request, env) => Response.json(await shardOf(request, env).stats()))
    .get("/shards/:workspace/:bucket/parked", async (request, env) => {
      const limit = Number(new URL(request.url).searchParams.get("limit") ?? 100);
      return Response.json(await shardOf(request, env).listParked(Number.isInteger(limit) ? limit : 100));
    })
    .post("/shards/:workspace/:bucket/replay", async (request, env) =>
      Response.json({ replayed: await shardOf(request, env).replay() }),
    )
    .post("/shards/:workspace/:bucket/parked/:key/replay", async (request, env) => {
      const replayed = await shardOf(request, env).replay(keyOf(request));
      if (replayed === 0) throw new Rejection(404, "no parked effect with that key");
      return Response.json({ replayed });
    })
    .delete("/shards/:workspace/:bucket/parked/:key", async (request, env) => {
      if (!(await shardOf(request, env).discard(keyOf(request)))) throw new Rejection(404, "no parked effect with that key");
      return Response.json({ discarded: 1 });
    })
    .get("/health", async (_request, env) => {
      const { span_minutes: _, ...window } = await shardStub(env.SHARD, WATCH).health();
      return Response.json(window);
    })
    .get("/installations", installationRoutes.list)
    .delete("/installations/:id", (request, env) => installationRoutes.remove(segment(request.params.id, "installation id"), env))
    .all("*", () => new Response("not found", { status: 404 }));
}
