import type { MeteredSql } from "../platform/sql/meteredSql";
import type { InstallationSummary, OAuthAccess } from "../rpc/installations";

/** One installation as stored: its summary, and its tokens sealed (src/auth/tokenCipher.ts). */
export interface StoredInstallation {
  summary: InstallationSummary;
  botToken: string | null;
  botRefreshToken: string | null;
  botExpiresAt: number | null;
  userToken: string | null;
  userRefreshToken: string | null;
  userExpiresAt: number | null;
}

type Row = {
  summary: string;
  bot_token: string | null;
  bot_refresh_token: string | null;
  bot_expires_at: number | null;
  user_token: string | null;
  user_refresh_token: string | null;
  user_expires_at: number | null;
};

/** The single row of an installation's object. Every change is one statement: tokens rotate atomically. */
export class InstallationRecord {
  constructor(private readonly sql: MeteredSql) {}

  read(): StoredInstallation | null {
    const [row] = this.sql.all<Row>(
      "SELECT summary, bot_token, bot_refresh_token, bot_expires_at, user_token, user_refresh_token, user_expires_at FROM installation LIMIT 1",
    );
    if (!row) return null;
    return {
      summary: JSON.parse(row.summary) as InstallationSummary,
      botToken: row.bot_token,
      botRefreshToken: row.bot_refresh_token,
      botExpiresAt: row.bot_expires_at,
      userToken: row.user_token,
      userRefreshToken: row.user_refresh_token,
      userExpiresAt: row.user_expires_at,
    };
  }

  write(stored: StoredInstallation): void {
    this.sql.count(
      `INSERT INTO installation (id, summary, bot_token, bot_refresh_token, bot_expires_at, user_token, user_refresh_token, user_expires_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (id) DO UPDATE SET summary = ?2, bot_token = ?3, bot_refresh_token = ?4, bot_expires_at = ?5,
          user_token = ?6, user_refresh_token = ?7, user_expires_at = ?8
        RETURNING 1`,
      stored.summary.id,
      JSON.stringify(stored.summary),
      stored.botToken,
      stored.botRefreshToken,
      stored.botExpiresAt,
      stored.userToken,
      stored.userRefreshToken,
      stored.userExpiresAt,
    );
  }

  delete(): boolean {
    return this.sql.count("DELETE FROM installation RETURNING 1") > 0;
  }
}

const scopesOf = (scope: string | undefined) => (scope ? scope.split(",").filter(Boolean) : []);

/**
 * When the tokens an installation serves stop being usable: the earlier of the bot token's and the
 * installing user's token's expiry (null: neither expires). Shards' caches keep a token answer no
 * later than the refresh margin before it, so both tokens are refreshed before either is used late.
 */
export function servedExpiry(stored: StoredInstallation): number | null {
  const expiries = [stored.botExpiresAt, stored.userToken ? stored.userExpiresAt : null].filter((at) => at !== null);
  return expiries.length > 0 ? Math.min(...expiries) : null;
}

/** When a token with `expires_in` seconds of life runs out. */
export const expiryOf = (expiresIn: number | undefined, now: number) =>
  typeof expiresIn === "number" && expiresIn > 0 ? now + expiresIn * 1000 : null;

/** The summary of an installation from Slack's answer (a reinstall keeps the org's granted teams). */
export function summaryOf(id: string, access: OAuthAccess, previous: InstallationSummary | undefined, now: number) {
  const summary: InstallationSummary = {
    id,
    teamId: access.team?.id ?? null,
    teamName: access.team?.name ?? null,
    enterpriseId: access.enterprise?.id ?? null,
    enterpriseName: access.enterprise?.name ?? null,
    isEnterpriseInstall: access.is_enterprise_install === true,
    appId: access.app_id ?? null,
    botUserId: access.bot_user_id ?? null,
    botScopes: scopesOf(access.scope),
    userId: access.authed_user?.id ?? null,
    userScopes: scopesOf(access.authed_user?.scope),
    tokenExpiresAt: expiryOf(access.expires_in, now),
    teams: previous?.teams ?? [],
    status: "installed",
    statusReason: null,
    installedAt: now,
    updatedAt: now,
    uninstalledAt: null,
  };
  return summary;
}
