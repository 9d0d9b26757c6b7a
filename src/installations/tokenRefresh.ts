import type { TokenCipher } from "../auth/tokenCipher";
import { log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import type { InstallationChange, TokenAnswer } from "../rpc/installations";
import { expiryOf, type StoredInstallation } from "./installationRecord";
import { oauthAccess } from "./oauthAccess";
import { TOKEN_REFRESH_MARGIN_MS } from "./refreshMargin";
import { storeSettings } from "./storeSettings";

/** Slack's answers to a refresh that mean the refresh token is dead for good. */
const REFRESH_REFUSED = new Set(["invalid_refresh_token", "invalid_grant", "token_revoked", "token_expired", "invalid_auth"]);

/** What a rotation needs of its installation (installationObject.ts). */
export interface RefreshingStore {
  readonly env: CoordinatorEnv;
  sealer(): Promise<TokenCipher>;
  seal(token: string | undefined): Promise<string | null>;
  read(): StoredInstallation | null;
  commit(stored: StoredInstallation, change?: InstallationChange, directory?: "await" | "background"): Promise<void>;
  tombstone(stored: StoredInstallation, status: "uninstalled" | "revoked", reason: string, now: number): Promise<void>;
}

/** Whose token a rotation renews: the bot's, or the installing user's (`context.userToken`). */
type Holder = "bot" | "user";

const due = (refreshToken: string | null, expiresAt: number | null, now: number) =>
  refreshToken !== null && expiresAt !== null && expiresAt - now <= TOKEN_REFRESH_MARGIN_MS;

/** Whether either token of the installation is within the refresh margin of its expiry. */
export function refreshDue(stored: StoredInstallation, now: number): boolean {
  return (
    due(stored.botRefreshToken, stored.botExpiresAt, now) ||
    (stored.userToken !== null && due(stored.userRefreshToken, stored.userExpiresAt, now))
  );
}

/** One rotation of what is due, the bot's token first: null when done, else the answer for the askers. */
export async function refreshTokens(store: RefreshingStore, stored: StoredInstallation): Promise<TokenAnswer | null> {
  if (due(stored.botRefreshToken, stored.botExpiresAt, Date.now())) {
    const failed = await refreshOne(store, stored, "bot");
    if (failed) return failed;
  }
  const current = store.read();
  if (current?.userToken && due(current.userRefreshToken, current.userExpiresAt, Date.now()))
    await refreshOne(store, current, "user");
  return null;
}

/**
 * Renews one holder's token pair. A user token's failures never stop the bot's: refused, it is
 * dropped (the user reinstalls to grant it again); failed for now, it is tried again next time
 * and not served once expired (installationObject.ts).
 */
async function refreshOne(store: RefreshingStore, stored: StoredInstallation, holder: Holder): Promise<TokenAnswer | null> {
  const id = stored.summary.id;
  const spent = holder === "bot" ? stored.botRefreshToken : stored.userRefreshToken;
  const refreshToken = await (await store.sealer()).decrypt(spent as string);
  const outcome = await oauthAccess(storeSettings(store.env), { grant_type: "refresh_token", refresh_token: refreshToken });
  const sealed =
    outcome.ok && outcome.access.access_token && outcome.access.refresh_token
      ? { token: await store.seal(outcome.access.access_token), refresh: await store.seal(outcome.access.refresh_token) }
      : null;
  // The refresh token was sent: re-read. An uninstall, or a reinstall (new tokens), while we
  // waited makes this outcome stale — it must neither overwrite nor revoke the newer state.
  const now = Date.now();
  const current = store.read();
  const stillSpent = holder === "bot" ? current?.botRefreshToken : current?.userRefreshToken;
  if (current?.summary.status !== "installed" || stillSpent !== spent) return null;
  if (outcome.ok) {
    if (!sealed) {
      log("error", "token refresh answered without tokens", { installation: id, holder });
      return holder === "bot" ? { status: "retry", reason: "token refresh answered without tokens" } : null;
    }
    const expiresAt = expiryOf(outcome.access.expires_in, now);
    // Both new tokens in one write: the old refresh token is dead now, the new one must not be lost.
    const renewed =
      holder === "bot"
        ? {
            ...current,
            botToken: sealed.token,
            botRefreshToken: sealed.refresh,
            botExpiresAt: expiresAt,
            summary: { ...current.summary, tokenExpiresAt: expiresAt, updatedAt: now },
          }
        : { ...current, userToken: sealed.token, userRefreshToken: sealed.refresh, userExpiresAt: expiresAt };
    await store.commit(renewed, undefined, "background");
    log("info", "token refreshed", { installation: id, holder, expiresAt });
    return null;
  }
  const refused = !outcome.transient && REFRESH_REFUSED.has(outcome.reason.replace("oauth.v2.access answered ", ""));
  if (!refused) {
    // Slack down, or our own client id/secret wrong: an operator can fix either; the token stays.
    log("error", "token refresh failed; will retry", { installation: id, holder, reason: outcome.reason });
    return holder === "bot" ? { status: "retry", reason: `token refresh failed: ${outcome.reason}` } : null;
  }
  const reason = `token refresh refused: ${outcome.reason}`;
  if (holder === "user") {
    await store.commit({ ...current, userToken: null, userRefreshToken: null, userExpiresAt: null }, undefined, "background");
    log("warn", "installing user's token refresh refused: no context.userToken until they reinstall", {
      installation: id,
      reason,
    });
    return null;
  }
  await store.tombstone(current, "revoked", reason, now);
  return { status: "revoked", reason };
}
