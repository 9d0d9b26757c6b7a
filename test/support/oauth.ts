import { env, exports } from "cloudflare:workers";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { installationStub } from "../../src/rpc/installationStubs";
import type { InstallationSummary } from "../../src/rpc/installations";
import { slackId } from "../../src/testing/deliveries";
import type { FakeSlack } from "../../src/testing/fakeSlack";

const BASE = "https://coordinator.test";
const coordinatorEnv = env as unknown as CoordinatorEnv;

/** GET a path of the Worker under test, as a browser would (redirects not followed). */
export function browse(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${BASE}${path}`, { headers, redirect: "manual" }));
}

/** Starts an install: the state Slack will send back and the cookie this browser got. */
export async function startInstall(): Promise<{ response: Response; state: string; cookie: string }> {
  const response = await browse("/slack/install");
  const location = new URL(response.headers.get("location") ?? "");
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { response, state: location.searchParams.get("state") ?? "", cookie };
}

export interface InstallOptions {
  /** The team installing, or for an org-wide install the org (enterprise id). */
  id: string;
  orgWide?: boolean;
  /** Token rotation: the bot token lives this many seconds and comes with a refresh token. */
  expiresIn?: number;
  botUserId?: string;
  userToken?: boolean;
  /** Token rotation of the installing user's token: it lives this many seconds, with a refresh token. */
  userExpiresIn?: number;
  /** The scopes granted to the bot (oauth.v2.access's `scope`); default `app_mentions:read`, `chat:write`. */
  botScopes?: string[];
}

/** The answer Slack's oauth.v2.access gives for an install. */
export function accessAnswer(options: InstallOptions): Record<string, unknown> {
  const { id, orgWide = false } = options;
  return {
    app_id: "A0000TEST",
    authed_user: {
      id: "UINSTALLER",
      scope: options.userToken ? "search:read" : "",
      ...(options.userToken ? { access_token: options.userExpiresIn ? `xoxe.xoxp-${id}-user` : `xoxp-${id}-user` } : {}),
      ...(options.userToken && options.userExpiresIn
        ? { refresh_token: `xoxe-1-${id}-user`, expires_in: options.userExpiresIn, token_type: "user" }
        : {}),
    },
    scope: (options.botScopes ?? ["app_mentions:read", "chat:write"]).join(","),
    token_type: "bot",
    access_token: options.expiresIn ? `xoxe.xoxb-${id}-install` : `xoxb-${id}-install`,
    bot_user_id: options.botUserId ?? `UB${id}`,
    team: orgWide ? null : { id, name: `Team ${id}` },
    enterprise: orgWide ? { id, name: `Org ${id}` } : null,
    is_enterprise_install: orgWide,
    ...(options.expiresIn ? { refresh_token: `xoxe-1-${id}-install`, expires_in: options.expiresIn } : {}),
  };
}

/** The whole install flow: /slack/install, Slack's consent (faked), /slack/oauth_redirect. */
export async function install(slack: FakeSlack, options: InstallOptions): Promise<Response> {
  const { state, cookie } = await startInstall();
  const code = slackId("code");
  slack.issueCode(code, accessAnswer(options));
  return browse(`/slack/oauth_redirect?code=${code}&state=${state}`, { cookie });
}

export function installationOf(id: string): Promise<InstallationSummary | null> {
  return installationStub(coordinatorEnv, id).summary();
}

/** GET /admin/installations, as an operator. */
export async function adminInstallations(): Promise<Response> {
  return browse("/admin/installations", { authorization: `Bearer ${coordinatorEnv.ADMIN_TOKEN}` });
}

export { coordinatorEnv };

/** A fresh team id per test. */
export const newTeam = () => slackId("T");
