import type { IRequest } from "itty-router";
import type { SlackApp } from "../app/contract";
import { Rejection } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import { deliverySettings, oauthMode } from "../settings";

/** The Worker's public origin, as Slack will reach it: `https://…` (`http://` for a local tunnel is refused by Slack, not here). */
function publicUrl(raw: string | null): string {
  if (!raw) throw new Rejection(400, "url is required: the Worker's public origin, e.g. ?url=https://coordinator.example.com");
  try {
    const url = new URL(raw);
    if (url.protocol === "https:" || url.protocol === "http:") return url.href.replace(/\/+$/, "");
  } catch {}
  throw new Rejection(400, "url must be an http(s) URL");
}

/**
 * `GET /admin/manifest?url=…[&name=…]`: the Slack app manifest the served app's registrations
 * need, in the mode this Worker runs in (its OAuth settings, `AGENT_SESSIONS`). The `manifest`
 * command reads it from the app's Worker run locally (bin/coordinator-cli.mjs).
 */
export function manifestRoute(app: SlackApp) {
  return (request: IRequest, env: CoordinatorEnv) => {
    if (!app.manifest) throw new Rejection(404, "this app does not describe its manifest (it is not an App)");
    const query = new URL(request.url).searchParams;
    const oauth = oauthMode(env);
    return Response.json(
      app.manifest({
        url: publicUrl(query.get("url")),
        ...(query.get("name") ? { name: query.get("name")! } : {}),
        agentView: deliverySettings(env).agent.sessions,
        ...(oauth
          ? {
              oauth: {
                scopes: oauth.scopes,
                userScopes: oauth.userScopes,
                ...(oauth.redirectUri ? { redirectUrl: oauth.redirectUri } : {}),
              },
            }
          : {}),
      }),
    );
  };
}
