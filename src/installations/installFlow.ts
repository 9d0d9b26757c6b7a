import { InvalidSetting } from "../platform/errors";
import { describeError, log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import { directoryStub, installationStub } from "../rpc/installationStubs";
import { oauthMode } from "../settings";
import { installedPage, installFailedPage } from "./installPages";
import { installationIdOf, oauthAccess } from "./oauthAccess";
import { issueState, STATE_TTL_MS } from "./signedState";

/** The cookie that binds an install's state to the browser that started it (CSRF protection). */
const STATE_COOKIE = "slack-app-oauth-state";
const COOKIE_PATH = "/slack";

function stateCookie(state: string, maxAgeSeconds: number): string {
  return `${STATE_COOKIE}=${state}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

const notFound = () => new Response("not found", { status: 404 });

/**
 * GET /slack/install: a fresh signed state (ten minutes; in the URL and in an HttpOnly cookie
 * for this browser), then 302 to Slack's authorize page. A click stores nothing anywhere.
 */
export async function beginInstall(_request: Request, env: CoordinatorEnv): Promise<Response> {
  const settings = oauthMode(env);
  if (!settings) return notFound();
  const state = await issueState(settings.clientSecret, Date.now());
  const authorize = new URL(settings.authorizeUrl);
  authorize.searchParams.set("client_id", settings.clientId);
  authorize.searchParams.set("scope", settings.scopes.join(","));
  if (settings.userScopes.length > 0) authorize.searchParams.set("user_scope", settings.userScopes.join(","));
  if (settings.redirectUri) authorize.searchParams.set("redirect_uri", settings.redirectUri);
  authorize.searchParams.set("state", state);
  log("info", "install started");
  return new Response(null, {
    status: 302,
    headers: {
      location: authorize.toString(),
      "set-cookie": stateCookie(state, STATE_TTL_MS / 1000),
      "cache-control": "no-store",
    },
  });
}

/** An install that ends here: logged, answered with a page, and the state cookie cleared. */
function failed(status: number, problem: string, advice: string, fields: Record<string, string> = {}): Response {
  log(status >= 500 ? "error" : "warn", "install failed", { status, problem, ...fields });
  return installFailedPage(status, problem, advice, { "set-cookie": stateCookie("", 0) });
}

/** The authorization errors OAuth 2.0 defines (RFC 6749 §4.1.2.1); Slack sends `access_denied` on Cancel. */
const OAUTH_ERRORS = new Set([
  "access_denied",
  "invalid_request",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "unauthorized_client",
  "unsupported_response_type",
]);

const START_AGAIN = "Start the installation again from its beginning (the Add to Slack link).";

/**
 * GET /slack/oauth_redirect?code&state: checks the state (signed here, ten minutes, single use:
 * spent by its first use, successful or not, at the directory) and this browser's cookie, redeems the code with `oauth.v2.access`, and
 * stores the installation. Every failure is an HTML page with a 4xx (502 when Slack cannot be
 * reached, 5xx for our own faults), stores nothing, and is logged.
 */
export async function completeInstall(request: Request, env: CoordinatorEnv): Promise<Response> {
  const settings = oauthMode(env);
  if (!settings) return notFound();
  const params = new URL(request.url).searchParams;
  const state = params.get("state");
  if (state) {
    const check = await directoryStub(env).consumeState(state);
    if (check === "unknown")
      return failed(400, "This installation link was already used, or was never issued here.", START_AGAIN);
    if (check === "expired") return failed(400, "This installation link expired (it lasts ten minutes).", START_AGAIN);
    if (cookieOf(request, STATE_COOKIE) !== state)
      return failed(400, "This installation was started in another browser, or its cookie is missing.", START_AGAIN);
  } else if (!settings.allowNoState) {
    return failed(400, "The installation link has no state.", START_AGAIN);
  }
  const error = params.get("error");
  if (error !== null) {
    // Anyone can put text here: the page names only OAuth's own codes, the log keeps 100 characters once.
    const named = OAUTH_ERRORS.has(error) ? error : "an error it did not name";
    return failed(403, `Slack did not authorize the installation (${named}).`, START_AGAIN, { error: error.slice(0, 100) });
  }
  const code = params.get("code");
  if (!code) return failed(400, "Slack sent no authorization code.", START_AGAIN);

  const outcome = await oauthAccess(settings, { code, redirect_uri: settings.redirectUri });
  if (!outcome.ok) {
    if (outcome.unreachable || outcome.transient)
      return failed(502, "Slack could not be reached to finish the installation.", START_AGAIN, { reason: outcome.reason });
    return failed(400, `Slack refused the installation: ${outcome.reason}.`, START_AGAIN, { reason: outcome.reason });
  }
  const { access } = outcome;
  const id = installationIdOf(access);
  if (!id || !access.access_token)
    return failed(502, "Slack's answer named no workspace or bot token.", "Check the app's bot scopes, then start again.");
  try {
    await installationStub(env, id).save(access);
  } catch (problem) {
    return failed(500, "The installation could not be stored.", "Try again in a minute.", { error: describeError(problem) });
  }
  log("info", "install completed", { installation: id, enterprise: access.is_enterprise_install === true });
  const clear = { "set-cookie": stateCookie("", 0) };
  if (settings.successUrl) return new Response(null, { status: 302, headers: { location: settings.successUrl, ...clear } });
  const name = (access.is_enterprise_install ? access.enterprise?.name : access.team?.name) ?? id;
  return installedPage(name, clear);
}

/** The install endpoints' guard: a configuration error is a named 500 page, and logged. */
export function installEndpoint(handler: (request: Request, env: CoordinatorEnv) => Promise<Response>) {
  return async (request: Request, env: CoordinatorEnv): Promise<Response> => {
    try {
      return await handler(request, env);
    } catch (error) {
      if (error instanceof InvalidSetting)
        return failed(500, `This app's installation is misconfigured: ${error.message}.`, "Tell the app's operator.", {
          setting: error.setting,
        });
      return failed(500, "The installation failed on our side.", "Try again in a minute.", { error: describeError(error) });
    }
  };
}
