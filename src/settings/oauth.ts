import { InvalidSetting } from "../platform/errors";
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

/** Null in single-workspace mode; throws InvalidSetting when OAuth mode is half configured. */
export const oauthSettings = oncePerEnv((vars): OAuthSettings | null => {
  const clientId = setting(vars, "SLACK_CLIENT_ID");
  const clientSecret = setting(vars, "SLACK_CLIENT_SECRET");
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined) throw new InvalidSetting("SLACK_CLIENT_ID", "is not set, but SLACK_CLIENT_SECRET is");
  if (clientSecret === undefined) throw new InvalidSetting("SLACK_CLIENT_SECRET", "is not set, but SLACK_CLIENT_ID is");
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
