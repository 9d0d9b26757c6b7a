import type { TokenCipher } from "../auth/tokenCipher";
import { log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import type { InstallationChange, TokenAnswer } from "../rpc/installations";
import { expiryOf, type StoredInstallation } from "./installationRecord";
import { oauthAccess } from "./oauthAccess";
import { storeSettings } from "./storeSettings";

/** Slack's answers to a refresh that mean the refresh token is dead for good. */
const REFRESH_REFUSED = new Set(["invalid_refresh_token", "invalid_grant", "token_revoked", "token_expired", "invalid_auth"]);

/** What a rotation needs of its installation (installation.ts). */
export interface RefreshingStore {
  readonly env: CoordinatorEnv;
  sealer(): Promise<TokenCipher>;
  seal(token: string | undefined): Promise<string | null>;
  read(): StoredInstallation | null;
  commit(stored: StoredInstallation, change?: InstallationChange, directory?: "await" | "background"): Promise<void>;
  tombstone(stored: StoredInstallation, status: "uninstalled" | "revoked", reason: string, now: number): Promise<void>;
}

/** One rotation: null when both new tokens are stored, else the answer for the askers. */
export async function refreshTokens(store: RefreshingStore, stored: StoredInstallation): Promise<TokenAnswer | null> {
  const id = stored.summary.id;
  const refreshToken = await (await store.sealer()).decrypt(stored.botRefreshToken as string);
  const outcome = await oauthAccess(storeSettings(store.env), { grant_type: "refresh_token", refresh_token: refreshToken });
  const sealed =
    outcome.ok && outcome.access.access_token && outcome.access.refresh_token
      ? {
          botToken: await store.seal(outcome.access.access_token),
          botRefreshToken: await store.seal(outcome.access.refresh_token),
        }
      : null;
  // The refresh token was sent: re-read. An uninstall, or a reinstall (new tokens), while we
  // waited makes this outcome stale — it must neither overwrite nor revoke the newer state.
  const now = Date.now();
  const current = store.read();
  if (current?.summary.status !== "installed" || current.botRefreshToken !== stored.botRefreshToken) return null;
  if (outcome.ok) {
    if (!sealed) {
      log("error", "token refresh answered without tokens", { installation: id });
      return { status: "retry", reason: "token refresh answered without tokens" };
    }
    const expiresAt = expiryOf(outcome.access.expires_in, now);
    // Both new tokens in one write: the old refresh token is dead now, the new one must not be lost.
    await store.commit(
      {
        ...current,
        ...sealed,
        summary: { ...current.summary, tokenExpiresAt: expiresAt, updatedAt: now },
        botExpiresAt: expiresAt,
      },
      undefined,
      "background",
    );
    log("info", "token refreshed", { installation: id, expiresAt });
    return null;
  }
  const refused = !outcome.transient && REFRESH_REFUSED.has(outcome.reason.replace("oauth.v2.access answered ", ""));
  if (!refused) {
    // Slack down, or our own client id/secret wrong: an operator can fix either; the token stays.
    log("error", "token refresh failed; will retry", { installation: id, reason: outcome.reason });
    return { status: "retry", reason: `token refresh failed: ${outcome.reason}` };
  }
  const reason = `token refresh refused: ${outcome.reason}`;
  await store.tombstone(current, "revoked", reason, now);
  return { status: "revoked", reason };
}
