import { type IRequest, Router } from "itty-router";
import { adminRoutes } from "../admin/adminRoutes";
import type { SlackApp } from "../app/contract";
import { consoleAsset, consolePage } from "../console/consoleAssets";
import { beginInstall, completeInstall, installEndpoint } from "../installations/installFlow";
import type { CoordinatorEnv } from "../rpc/env";
import { handleSlackRequest } from "./handleSlackRequest";

/** Where Slack posts, exactly as configured: every delivery, so found before the router's work (below). */
const SLACK_PATHS = new Set(["/slack/events", "/slack/commands", "/slack/interactivity"]);

const internalError = () => new Response("internal error", { status: 500 });

/**
 * The Worker's routes (docs/reference/endpoints.md). Every Slack surface shares one handler, as in
 * Bolt. A Slack delivery is the one request that comes at Slack's rate: it is handed over by its
 * path alone, without the router's query parsing, pattern matching and awaits (a few per cent of
 * the isolate at 300 events/s); any other spelling of those paths still reaches it by the router.
 */
export function buildRouter(app: SlackApp) {
  const slack = (request: Request, env: CoordinatorEnv, ctx: ExecutionContext) => handleSlackRequest(request, env, app, ctx);
  const router = routes(app, slack);
  return {
    async fetch(request: Request, env: CoordinatorEnv, ctx: ExecutionContext): Promise<Response> {
      if (request.method !== "POST" || !SLACK_PATHS.has(new URL(request.url).pathname)) return router.fetch(request, env, ctx);
      try {
        return await slack(request, env, ctx);
      } catch {
        return internalError();
      }
    },
  };
}

function routes(app: SlackApp, slack: (request: Request, env: CoordinatorEnv, ctx: ExecutionContext) => Promise<Response>) {
  const admin = adminRoutes(app);
  return (
    Router<Request, [CoordinatorEnv, ExecutionContext]>({ catch: internalError })
      .post("/slack/events", slack)
      .post("/slack/commands", slack)
      .post("/slack/interactivity", slack)
      .get("/slack/install", installEndpoint(beginInstall))
      .get("/slack/oauth_redirect", installEndpoint(completeInstall))
      .get("/healthz", () => Response.json({ ok: true }))
      // The console's page and assets carry no data: no token (every data request needs one).
      .get("/admin", (_request, env) => consolePage(env.ADMIN_TOKEN))
      .get("/admin/assets/:name", (request: IRequest, env) => consoleAsset(String(request.params.name), env.ADMIN_TOKEN))
      .all("/admin/*", admin.fetch)
      .all("*", () => new Response("not found", { status: 404 }))
  );
}
