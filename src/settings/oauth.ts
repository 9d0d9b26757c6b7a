import { InvalidSetting } from "../platform/errors";
import { log } from "../platform/log";
import { oncePerEnv } from "./once";
import { setting } from "./table";

/** OAuth (multi-workspace) mode: on when SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are both set. */
export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Bot scopes asked for at install (SLACK_SCOPES), and user scopes (SLACK_USER_SCOPES). */
  scopes: string[];
  userScopes: string[];
  redirectUri?: string;
  successUrl?: string;
  allowNoState: boolean;
  authorizeUrl: string;
  /** Where oauth.v2.access is called: SLACK_API_URL. */
  apiUrl: string;
}

/** The half-set pairs this isolate has named already: once at start, however many envs it reads. */
const told = new Set<string>();

/**
 * Null in single-workspace mode. One of the pair without the other is not OAuth mode: it is
 * often the app's own variable of the same name (a Bolt sample's SLACK_CLIENT_ID in .dev.vars),
 * so it is named once, with the fix, and everything that does not need OAuth keeps working.
 * With both set, OAuth mode is meant: a setting it cannot work without throws InvalidSetting.
 */
export const oauthSettings = oncePerEnv((vars): OAuthSettings | null => {
  const clientId = setting(vars, "SLACK_CLIENT_ID");
  const clientSecret = setting(vars, "SLACK_CLIENT_SECRET");
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined || clientSecret === undefined) {
    const [set, missing] =
      clientId === undefined ? ["SLACK_CLIENT_SECRET", "SLACK_CLIENT_ID"] : ["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET"];
    if (!told.has(missing))
      log("warn", `${set} is set but ${missing} is not: OAuth mode is off, every workspace uses SLACK_BOT_TOKEN`, {
        setting: missing,
        fix: `to install in many workspaces set ${missing} and TOKEN_ENCRYPTION_KEY; if ${set} is your app's own variable, remove it from the coordinator's env or rename it`,
      });
    told.add(missing);
    return null;
  }
  if (setting(vars, "TOKEN_ENCRYPTION_KEY") === undefined)
    throw new InvalidSetting("TOKEN_ENCRYPTION_KEY", "is not set: OAuth mode never stores tokens unencrypted");
  setting(vars, "TOKEN_ENCRYPTION_KEY_PREVIOUS");
  const allowNoState = setting(vars, "SLACK_OAUTH_ALLOW_NO_STATE");
  return {
    clientId,
    clientSecret,
    scopes: setting(vars, "SLACK_SCOPES"),
    userScopes: setting(vars, "SLACK_USER_SCOPES"),
    redirectUri: setting(vars, "SLACK_REDIRECT_URI"),
    successUrl: setting(vars, "SLACK_INSTALL_SUCCESS_URL"),
    allowNoState,
    authorizeUrl: setting(vars, "SLACK_OAUTH_AUTHORIZE_URL"),
    apiUrl: setting(vars, "SLACK_API_URL"),
  };
});
