import type { Authorization, Authorize, WorkspaceRef } from "../auth/authorize";
import { singleWorkspace } from "../auth/authorize";
import { NotInstalled, TokenRefreshFailed } from "../platform/errors";
import type { CoordinatorEnv } from "../rpc/env";
import { installationStub } from "../rpc/installationStubs";
import { oauthMode } from "../settings";
import { installationCache } from "./installationCache";

/**
 * OAuth mode: the bot token (and the installing user's) of the workspace's installation, from the isolate's cache or the
 * installation store (which refreshes a rotating token first). No installation, or one that was
 * uninstalled or revoked: NotInstalled, parked at once. A refresh that failed for now: retried.
 */
export async function fromInstallations(ref: WorkspaceRef, env: CoordinatorEnv): Promise<Authorization> {
  const answer = await installationCache.token(ref.workspace, Date.now(), () => installationStub(env, ref.workspace).token());
  switch (answer.status) {
    case "installed":
      return {
        botToken: answer.botToken,
        ...(answer.userToken ? { userToken: answer.userToken } : {}),
        ...(answer.botScopes ? { botScopes: answer.botScopes } : {}),
        // Slack says the installation is gone: the store marks it revoked (if this is still its token).
        onRejected: async (code) => {
          await installationStub(env, ref.workspace).tokenRejected(answer.botToken, code);
        },
      };
    case "retry":
      throw new TokenRefreshFailed(answer.reason);
    default:
      throw new NotInstalled(answer.reason);
  }
}

/** The default: installations in OAuth mode (SLACK_CLIENT_ID and _SECRET set), else SLACK_BOT_TOKEN. */
export const byMode: Authorize<CoordinatorEnv> = (ref, env) =>
  oauthMode(env) ? fromInstallations(ref, env) : singleWorkspace(ref, env);
