import { Router } from "itty-router";
import { adminRoutes } from "../admin/adminRoutes";
import type { SlackApp } from "../app/types";
import type { CoordinatorEnv } from "../env";
import { beginInstall, completeInstall, installEndpoint } from "../installations/installFlow";
import { handleSlackRequest } from "./handleSlackRequest";

/** The Worker's routes (README "Endpoints"). Every Slack surface shares one handler, as in Bolt. */
export function buildRouter(app: SlackApp) {
  const slack = (request: Request, env: CoordinatorEnv, ctx: ExecutionContext) => handleSlackRequest(request, env, app, ctx);
  const admin = adminRoutes();
  return Router<Request, [CoordinatorEnv, ExecutionContext]>({
    catch: () => new Response("internal error", { status: 500 }),
  })
    .post("/slack/events", slack)
    .post("/slack/commands", slack)
    .post("/slack/interactivity", slack)
    .get("/slack/install", installEndpoint(beginInstall))
    .get("/slack/oauth_redirect", installEndpoint(completeInstall))
    .get("/healthz", () => Response.json({ ok: true }))
    .all("/admin/*", admin.fetch)
    .all("*", () => new Response("not found", { status: 404 }));
}
