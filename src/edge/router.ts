import { type IRequest, Router } from "itty-router";
import { adminRoutes } from "../admin/adminRoutes";
import type { SlackApp } from "../app/contract";
import { consoleAsset, consolePage } from "../console/consoleAssets";
import { beginInstall, completeInstall, installEndpoint } from "../installations/installFlow";
import type { CoordinatorEnv } from "../rpc/env";
import { handleSlackRequest } from "./handleSlackRequest";

/** The Worker's routes (docs/reference/endpoints.md). Every Slack surface shares one handler, as in Bolt. */
export function buildRouter(app: SlackApp) {
  const slack = (request: Request, env: CoordinatorEnv, ctx: ExecutionContext) => handleSlackRequest(request, env, app, ctx);
  const admin = adminRoutes(app);
  return (
    Router<Request, [CoordinatorEnv, ExecutionContext]>({
      catch: () => new Response("internal error", { status: 500 }),
    })
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
