import { type TokenCipher, tokenCipher } from "../auth/tokenCipher";
import { log } from "../platform/log";
import type { Schema } from "../platform/sql/schema";
import type { CoordinatorEnv } from "../rpc/env";
import { directoryStub } from "../rpc/installationStubs";
import type {
  InstallationApi,
  InstallationChange,
  InstallationSummary,
  LifecycleCause,
  OAuthAccess,
  StatusAnswer,
  TokenAnswer,
} from "../rpc/installations";
import { InstallationLifecycle } from "./installationLifecycle";
import { expiryOf, InstallationRecord, type StoredInstallation, servedExpiry, summaryOf } from "./installationRecord";
import { notifyShards } from "./notifyShards";
import { installationIdOf } from "./oauthAccess";
import { refreshDue, refreshTokens } from "./tokenRefresh";

/** Why an installation serves no token: never installed, or tombstoned (uninstalled, revoked). */
function notServing(stored: StoredInstallation | null): Exclude<StatusAnswer, { status: "installed" }> {
  if (!stored) return { status: "absent", reason: "workspace has not installed this app" };
  const { status, statusReason } = stored.summary;
  // "installed" without a bot token should not happen; it can serve nothing, so it counts as revoked.
  return { status: status === "installed" ? "revoked" : status, reason: statusReason ?? status };
}

/**
 * One installation's role (OAuth mode), one SQLite Durable Object per installation — strongly
 * consistent and single-threaded, so a rotation is one atomic write and concurrent askers share
 * one refresh. Its summary is copied to the directory, and its changes are told to its shards;
 * what Slack's lifecycle events do to it is installationLifecycle.ts.
 */
export class Installation implements InstallationApi {
  readonly kind = "an installation";
  private readonly record: InstallationRecord;
  /** Slack's lifecycle events and a rejected token, applied to this installation. */
  private readonly lifecycle = new InstallationLifecycle(this);
  private cipher?: Promise<TokenCipher>;
  /** The refresh in flight: every asker awaits this one instead of starting its own. */
  private refreshing?: Promise<TokenAnswer | null>;

  constructor(
    private readonly schema: Schema,
    readonly env: CoordinatorEnv,
  ) {
    this.record = new InstallationRecord(schema.sql);
  }

  read(): StoredInstallation | null {
    return this.schema.migrated ? this.record.read() : null;
  }

  sealer(): Promise<TokenCipher> {
    this.cipher ??= tokenCipher(this.env);
    return this.cipher;
  }

  async seal(token: string | undefined): Promise<string | null> {
    return token ? (await this.sealer()).encrypt(token) : null;
  }

  /**
   * Writes the installation, tells its shards if asked, then updates the directory's copy of its
   * summary (awaited unless `directory` is "background": a rotation must not wait on the list).
   * What follows the write is repeated by `announce` when an effect is retried.
   */
  async commit(
    stored: StoredInstallation,
    change?: InstallationChange,
    directory: "await" | "background" = "await",
  ): Promise<void> {
    this.schema.migrate();
    this.record.write(stored);
    await this.announce(stored.summary, change, directory);
  }

  async announce(
    summary: InstallationSummary,
    change?: InstallationChange,
    directory: "await" | "background" = "await",
  ): Promise<void> {
    if (change) await notifyShards(this.env, summary.id, change);
    const listed = directoryStub(this.env).recordSummary(summary);
    if (directory === "await") await listed;
    else
      void listed.catch((error: unknown) =>
        log("warn", "directory not updated", { installation: summary.id, error: String(error) }),
      );
  }

  async save(access: OAuthAccess): Promise<InstallationSummary> {
    const id = installationIdOf(access);
    if (!id || !access.access_token) throw new Error("oauth.v2.access answered without an installation id or bot token");
    const user = access.authed_user;
    // Sealed before the read, so nothing awaits between reading and writing the row.
    const sealed = {
      botToken: await this.seal(access.access_token),
      botRefreshToken: await this.seal(access.refresh_token),
      userToken: await this.seal(user?.access_token),
      userRefreshToken: await this.seal(user?.refresh_token),
    };
    const now = Date.now();
    const previous = this.read();
    const summary = summaryOf(id, access, previous?.summary, now);
    const userExpiresAt = sealed.userToken ? expiryOf(user?.expires_in, now) : null;
    await this.commit({ summary, ...sealed, botExpiresAt: summary.tokenExpiresAt, userExpiresAt }, { status: "installed" });
    log("info", previous ? "installation updated" : "installation stored", {
      installation: id,
      enterprise: summary.isEnterpriseInstall,
    });
    return summary;
  }

  /** Installed or not, without decrypting anything: what the ack path asks (a key problem never halts recording). */
  status(): StatusAnswer {
    const stored = this.read();
    return stored?.botToken && stored.summary.status === "installed"
      ? { status: "installed", expiresAt: servedExpiry(stored) }
      : notServing(stored);
  }

  /**
   * The bot token, and the installing user's when user scopes were granted; a token within the
   * refresh margin of its expiry is refreshed first (one refresh at a time, both tokens in it).
   */
  async token({ refresh = true }: { refresh?: boolean } = {}): Promise<TokenAnswer> {
    const stored = this.read();
    if (!stored?.botToken || stored.summary.status !== "installed") return notServing(stored);
    if (refresh && refreshDue(stored, Date.now())) {
      // Single flight: the first asker starts the refresh; everyone arriving meanwhile awaits it.
      this.refreshing ??= refreshTokens(this, stored).finally(() => {
        this.refreshing = undefined;
      });
      const failed = await this.refreshing;
      if (failed) return failed;
      return this.token({ refresh: false });
    }
    const cipher = await this.sealer();
    // A user token past its expiry (its refresh failed for now) is not served: the bot's still is.
    const userUsable = stored.userToken !== null && (stored.userExpiresAt === null || stored.userExpiresAt > Date.now());
    return {
      status: "installed",
      botToken: await cipher.decrypt(stored.botToken),
      ...(userUsable ? { userToken: await cipher.decrypt(stored.userToken as string) } : {}),
      botScopes: stored.summary.botScopes,
      expiresAt: servedExpiry(stored),
    };
  }

  /** Deletes the tokens, keeps a tombstone, and tells the shards (which park what waits). */
  async tombstone(stored: StoredInstallation, status: "uninstalled" | "revoked", reason: string, now: number) {
    await this.commit(
      {
        summary: { ...stored.summary, status, statusReason: reason, uninstalledAt: now, updatedAt: now, tokenExpiresAt: null },
        botToken: null,
        botRefreshToken: null,
        botExpiresAt: null,
        userToken: null,
        userRefreshToken: null,
        userExpiresAt: null,
      },
      { status, reason },
    );
    log("warn", "installation stopped", { installation: stored.summary.id, status, reason });
  }

  uninstall(cause: LifecycleCause): Promise<boolean> {
    return this.lifecycle.uninstall(cause);
  }

  revokeTokens(revoked: { bot: string[]; users: string[] }, cause: LifecycleCause): Promise<boolean> {
    return this.lifecycle.revokeTokens(revoked, cause);
  }

  tokenRejected(botToken: string, code: string): Promise<boolean> {
    return this.lifecycle.tokenRejected(botToken, code);
  }

  teamAccess(change: "granted" | "revoked", teamIds: string[]): Promise<void> {
    return this.lifecycle.teamAccess(change, teamIds);
  }

  summary(): InstallationSummary | null {
    return this.read()?.summary ?? null;
  }

  /** Deletes the installation; `id` lets a retried DELETE finish what a failed one left (shards, list). */
  async remove(id: string): Promise<boolean> {
    const stored = this.read();
    if (stored) this.record.delete();
    const reason = "installation deleted by an operator";
    await notifyShards(this.env, id, { status: "uninstalled", reason });
    await directoryStub(this.env).forgetSummary(id);
    if (stored) log("warn", reason, { installation: id });
    return stored !== null;
  }
}
