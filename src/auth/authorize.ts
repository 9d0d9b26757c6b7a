import { MissingBotToken } from "../platform/errors";

/** The workspace an effect acts in: a team, or an Enterprise Grid org for org-wide installs. */
export interface WorkspaceRef {
  /** The shard's workspace key: the enterprise id for org-wide installs, else the team id. */
  workspace: string;
}

/** The credentials an effect is performed with. */
export interface Authorization {
  botToken: string;
  /**
   * The installing user's token, when the install granted user scopes (OAuth mode): a run's
   * `context.userToken`, as Bolt's. Calls made with it (`client.search.messages({ token })`) act as that user.
   */
  userToken?: string;
  /**
   * The scopes the bot token was granted (OAuth mode: oauth.v2.access's `scope`, recorded at
   * install): a listener needing an optional scope not among them is skipped. Undefined: unknown.
   */
  botScopes?: readonly string[];
  /**
   * Called when Slack rejects this token (`invalid_auth`, `token_revoked`, `account_inactive`,
   * `not_authed`) — the effect itself is parked either way. OAuth mode marks the installation
   * revoked, so its other effects park at once instead of each trying the dead token.
   */
  onRejected?(code: string): void | Promise<void>;
}

/**
 * Resolves credentials per workspace, as Bolt's `authorize` and slack-edge's
 * `InstallationStore.toAuthorize()` do. Called on a shard, at most once per delivery attempt
 * and only when the attempt calls the Web API. Throw a DeliveryError (platform/errors.ts) to say
 * what the outbox should do — `MissingBotToken` retries; a future `WorkspaceNotInstalled` parks.
 */
export type Authorize<E = Record<string, unknown>> = (ref: WorkspaceRef, env: E) => Authorization | Promise<Authorization>;

/** Single-workspace mode: every effect uses SLACK_BOT_TOKEN. */
export const singleWorkspace: Authorize<{ SLACK_BOT_TOKEN?: string }> = (_ref, env) => {
  if (!env.SLACK_BOT_TOKEN) throw new MissingBotToken("SLACK_BOT_TOKEN is not set");
  return { botToken: env.SLACK_BOT_TOKEN };
};
