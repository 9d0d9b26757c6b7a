import { InvalidSetting } from "../platform/errors";
import { type OAuthSettings, oauthSettings } from "./oauth";
import { type RelaySettings, relaySettings } from "./relaySettings";
import type { SettingsEnv } from "./settingsEnv";

/** The env as the modes read it: its settings, and the INSTALLATIONS binding OAuth mode needs (CoordinatorEnv is one). */
type ModeEnv = SettingsEnv & { INSTALLATIONS?: unknown };

/**
 * OAuth mode's settings, or null in single-workspace mode (SLACK_CLIENT_ID and
 * SLACK_CLIENT_SECRET not both set; one alone is logged once, oauth.ts). Strict: throws
 * InvalidSetting when OAuth mode is on but cannot work safely — no TOKEN_ENCRYPTION_KEY (tokens
 * would be stored in plaintext), an unreadable OAuth setting, or no
 * INSTALLATIONS binding — so the edge refuses with a named configuration error instead of storing
 * a token it should not. The one place that decides the mode; `inOAuthMode` is its lenient reading.
 */
export function oauthMode(env: ModeEnv): OAuthSettings | null {
  const settings = oauthSettings(env);
  if (settings && !env.INSTALLATIONS)
    throw new InvalidSetting(
      "INSTALLATIONS",
      "binding is missing: OAuth mode keeps installations in this Durable Object namespace",
    );
  return settings;
}

/**
 * Whether OAuth mode is asked for, for a shard that must not fail on it: both SLACK_CLIENT_ID and
 * SLACK_CLIENT_SECRET set with a setting OAuth mode cannot work without counts as on (the edge
 * refuses it, 500, named), so nothing is recorded as single-workspace.
 */
export function inOAuthMode(env: ModeEnv): boolean {
  try {
    return oauthMode(env) !== null;
  } catch {
    return true;
  }
}

/** Relay mode's settings, or null unless RELAY_URL is set. Strict: a relay setting that cannot work throws InvalidSetting. */
export function relayMode(env: ModeEnv): RelaySettings | null {
  return relaySettings(env);
}
