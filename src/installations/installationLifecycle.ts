import type { TokenCipher } from "../auth/tokenCipher";
import { log } from "../platform/log";
import type { CoordinatorEnv } from "../rpc/env";
import type { InstallationChange, InstallationSummary, LifecycleCause } from "../rpc/installations";
import type { StoredInstallation } from "./installationRecord";
import { notifyShards } from "./notifyShards";

/** What a lifecycle change needs of its installation (installationObject.ts). */
export interface LifecycleStore {
  readonly env: CoordinatorEnv;
  sealer(): Promise<TokenCipher>;
  read(): StoredInstallation | null;
  commit(stored: StoredInstallation, change?: InstallationChange): Promise<void>;
  announce(summary: InstallationSummary, change?: InstallationChange): Promise<void>;
  tombstone(stored: StoredInstallation, status: "uninstalled" | "revoked", reason: string, now: number): Promise<void>;
}

/**
 * What happens to an installation after its install (OAuth mode): Slack's lifecycle events —
 * `app_uninstalled`, `tokens_revoked`, `team_access_granted` / `team_access_revoked` (planned by
 * lifecycle.ts) — and a bot token Slack rejected. All but `teamAccess` answer whether they changed it.
 */
export class InstallationLifecycle {
  constructor(private readonly store: LifecycleStore) {}

  /**
   * An event from before the latest install is about the previous one (a late retry): ignored.
   * Slack's event_time has whole seconds, so an event in the install's own second counts.
   */
  private isStale(stored: StoredInstallation, cause: LifecycleCause): boolean {
    return cause.eventTime !== undefined && cause.eventTime < Math.floor(stored.summary.installedAt / 1000);
  }

  async uninstall(cause: LifecycleCause): Promise<boolean> {
    const stored = this.store.read();
    if (!stored) return false;
    if (stored.summary.status === "uninstalled") {
      // Already applied; a retried effect repeats what followed the write, which may have failed.
      await this.store.announce(stored.summary, { status: "uninstalled", reason: stored.summary.statusReason ?? cause.reason });
      return false;
    }
    if (this.isStale(stored, cause)) {
      // The shard that received it believed it at once; tell them all the installation stands.
      log("info", "stale uninstall ignored", { installation: stored.summary.id, eventTime: cause.eventTime });
      await notifyShards(this.store.env, stored.summary.id, { status: "installed" });
      return false;
    }
    await this.store.tombstone(stored, "uninstalled", cause.reason, Date.now());
    return true;
  }

  async revokeTokens(revoked: { bot: string[]; users: string[] }, cause: LifecycleCause): Promise<boolean> {
    const stored = this.store.read();
    if (!stored || this.isStale(stored, cause)) return false;
    const { botUserId, userId, status } = stored.summary;
    if (status !== "installed") {
      if (botUserId !== null && revoked.bot.includes(botUserId))
        await this.store.announce(stored.summary, { status, reason: stored.summary.statusReason ?? cause.reason });
      return false;
    }
    if (botUserId !== null && revoked.bot.includes(botUserId)) {
      await this.store.tombstone(stored, "revoked", cause.reason, Date.now());
      return true;
    }
    if (userId !== null && revoked.users.includes(userId) && stored.userToken !== null) {
      await this.store.commit({ ...stored, userToken: null, userRefreshToken: null, userExpiresAt: null });
      log("info", "installing user's token revoked", { installation: stored.summary.id });
      return true;
    }
    return false;
  }

  async tokenRejected(botToken: string, code: string): Promise<boolean> {
    const stored = this.store.read();
    if (stored?.summary.status !== "installed" || !stored.botToken) return false;
    // A token rotated or reinstalled since the call was made is not the one Slack refused.
    if ((await (await this.store.sealer()).decrypt(stored.botToken)) !== botToken) return false;
    const current = this.store.read();
    if (current?.botToken !== stored.botToken) return false;
    await this.store.tombstone(current, "revoked", `token rejected by Slack: ${code}`, Date.now());
    return true;
  }

  async teamAccess(change: "granted" | "revoked", teamIds: string[]): Promise<void> {
    const stored = this.store.read();
    if (!stored) return;
    const teams = new Set(stored.summary.teams);
    for (const team of teamIds) {
      if (change === "granted") teams.add(team);
      else teams.delete(team);
    }
    await this.store.commit({ ...stored, summary: { ...stored.summary, teams: [...teams].sort(), updatedAt: Date.now() } });
    log("info", `org access ${change}`, { installation: stored.summary.id, teams: teamIds.length });
  }
}
