import { InvalidSetting } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import { type OAuthSettings, oauthSettings } from "../settings";

/** OAuth mode's settings, as the installation store needs them: it serves OAuth mode only. */
export function storeSettings(env: CoordinatorEnv): OAuthSettings {
  const settings = oauthSettings(env);
  if (!settings) throw new InvalidSetting("SLACK_CLIENT_ID", "is not set: the installation store serves OAuth mode only");
  return settings;
}
