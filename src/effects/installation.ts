import type { InstallationEffect } from "../app/contract";
import { NotInstalled } from "../platform/errors";
import type { InstallationsNamespace } from "../rpc/env";
import { installationStub } from "../rpc/installationStubs";
import type { EffectKind } from "./kind";

/**
 * `installation`: an installation lifecycle event (app_uninstalled, tokens_revoked,
 * team_access_granted/revoked) applied to the installation store, at least once — each action
 * is idempotent there, and one older than the latest install is ignored. The store then tells
 * every shard of the workspace, which park what waits for it.
 */
export const installation: EffectKind<InstallationEffect, { installations?: InstallationsNamespace }> = {
  type: "installation",
  deps: ({ env }) => ({ installations: env.INSTALLATIONS }),
  async perform(effect, _, { installations }) {
    if (!installations) throw new NotInstalled("no installation store (INSTALLATIONS) in this deployment");
    const store = installationStub({ INSTALLATIONS: installations }, effect.installation);
    const cause = { eventTime: effect.eventTime };
    switch (effect.action) {
      case "uninstall":
        await store.uninstall({ ...cause, reason: "app uninstalled" });
        return;
      case "revoke_tokens":
        await store.revokeTokens({ bot: effect.bot, users: effect.users }, { ...cause, reason: "tokens revoked" });
        return;
      case "team_access":
        await store.teamAccess(effect.change, effect.teams);
        return;
    }
  },
};
