import { type OAuthSettings, oauthSettings } from "../config";
import type { CoordinatorEnv } from "../env";
import { InvalidSetting } from "../errors";

/**
 * OAuth mode's settings, or null in single-workspace mode. Throws InvalidSetting when OAuth mode
 * is on but cannot work safely — half configured, no TOKEN_ENCRYPTION_KEY (tokens would be stored
 * in plaintext), or no INSTALLATIONS binding — so the edge refuses with a named configuration
 * error instead of storing a token it should not.
 */
export function oauthMode(env: CoordinatorEnv): OAuthSettings | null {
  const settings = oauthSettings(env);
  if (settings && !env.INSTALLATIONS)
    throw new InvalidSetting(
      "INSTALLATIONS",
      "binding is missing: OAuth mode keeps installations in this Durable Object namespace",
    );
  return settings;
}
