import { describeError } from "../platform/log";
import type { OAuthAccess } from "../rpc/installations";
import type { OAuthSettings } from "../settings";
import { classifyAnswer } from "../slack/classifyAnswer";
import { callWebApi } from "../slack/webApi";

/** How long one oauth.v2.access call may take. */
const ACCESS_TIMEOUT_MS = 10_000;

/** Slack's answer to `oauth.v2.access`, or why there is none. */
export type AccessOutcome =
  | { ok: true; access: OAuthAccess }
  /**
   * `unreachable`: no answer at all (network, timeout); `transient`: a later call may succeed
   * (5xx, 429, Slack's transient codes); otherwise Slack refused for good (`invalid_code`, …).
   */
  | { ok: false; reason: string; unreachable: boolean; transient: boolean };

/**
 * Calls `oauth.v2.access` at SLACK_API_URL — to redeem an install's `code`, or (with
 * `grant_type=refresh_token`) to rotate a token. The client id and secret go by HTTP Basic
 * auth, as Slack prefers, never in the body.
 */
export async function oauthAccess(settings: OAuthSettings, args: Record<string, string | undefined>): Promise<AccessOutcome> {
  const authorization = `Basic ${btoa(`${settings.clientId}:${settings.clientSecret}`)}`;
  let result: Awaited<ReturnType<typeof callWebApi>>;
  try {
    result = await callWebApi({
      apiUrl: settings.apiUrl,
      authorization,
      method: "oauth.v2.access",
      body: args,
      signal: AbortSignal.timeout(ACCESS_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, reason: `Slack unreachable: ${describeError(error)}`, unreachable: true, transient: true };
  }
  const answerClass = classifyAnswer(result);
  if (answerClass === "delivered") return { ok: true, access: (result.body ?? { ok: true }) as unknown as OAuthAccess };
  const reason = `oauth.v2.access answered ${result.error ?? `HTTP ${result.status}`}`;
  return { ok: false, reason, unreachable: false, transient: answerClass === "retry" };
}

/** The installation an answer describes: the org for org-wide installs, else the team. */
export function installationIdOf(access: OAuthAccess): string | undefined {
  return access.is_enterprise_install ? access.enterprise?.id : access.team?.id;
}
