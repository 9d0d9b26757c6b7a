import { Router, type IRequest } from "itty-router";
import type { CoordinatorEnv } from "../env";
import { Rejection } from "../edge/rejection";
import { log } from "../log";
import { authorizeAdmin } from "./authorizeAdmin";

type AdminRequest = IRequest & { params: { workspace: string; bucket: string; key?: string } };

function shardOf(request: AdminRequest, env: CoordinatorEnv) {
  const name = `${request.params.workspace}/${request.params.bucket}`;
  return env.SHARD.get(env.SHARD.idFromName(name));
}

/**
 * The operations API (README "Operations API"): a shard's counts, its dead-letter queue,
 * replay and discard. A shard is addressed as `/admin/shards/{workspace}/{bucket}`.
 */
export function adminRoutes() {
  return Router<AdminRequest, [CoordinatorEnv, ExecutionContext]>({
    base: "/admin",
    before: [async (request, env) => {
      await authorizeAdmin(request, env.ADMIN_TOKEN);
      log("info", "admin request", { method: request.method, path: new URL(request.url).pathname });
    }],
    catch: (error) => (error instanceof Rejection ? error.toResponse() : new Response("internal error", { status: 500 })),
  })
    .get("/shards/:workspace/:bucket", async (request, env) => Response.json(await shardOf(request, env).stats()))
    .get("/shards/:workspace/:bucket/parked", async (request, env) => {
      const limit = Number(new URL(request.url).searchParams.get("limit") ?? 100);
      return Response.json(await shardOf(request, env).listParked(Number.isInteger(limit) ? limit : 100));
    })
    .post("/shards/:workspace/:bucket/replay", async (request, env) => Response.json({ replayed: await shardOf(request, env).replay() }))
    .post("/shards/:workspace/:bucket/parked/:key/replay", async (request, env) => {
      const replayed = await shardOf(request, env).replay(decodeURIComponent(request.params.key!));
      if (replayed === 0) throw new Rejection(404, "no parked effect with that key");
      return Response.json({ replayed });
    })
    .delete("/shards/:workspace/:bucket/parked/:key", async (request, env) => {
      if (!(await shardOf(request, env).discard(decodeURIComponent(request.params.key!)))) throw new Rejection(404, "no parked effect with that key");
      return Response.json({ discarded: 1 });
    })
    .all("*", () => new Response("not found", { status: 404 }));
}
