import type { InstallationsApi } from "./installations/api";
import type { ShardApi } from "./shard/api";

/** The shard namespace as callers see it: the RPC surface of shard/api.ts. */
export type ShardNamespace = DurableObjectNamespace<ShardApi & Rpc.DurableObjectBranded>;

/** The installation store's namespace (OAuth mode): one object per installation, and the directory. */
export type InstallationsNamespace = DurableObjectNamespace<InstallationsApi & Rpc.DurableObjectBranded>;

/**
 * The bindings and settings the coordinator reads. `wrangler types` generates the deployed
 * Worker's `Env` (worker-configuration.d.ts); secrets are absent there, so they are listed here.
 * Every setting is documented in README.md ("Settings").
 */
export interface CoordinatorEnv {
  SHARD: ShardNamespace;
  /** Required in OAuth mode only. */
  INSTALLATIONS?: InstallationsNamespace;
  SLACK_SIGNING_SECRET?: string;
  SLACK_SIGNING_SECRET_PREVIOUS?: string;
  SLACK_BOT_TOKEN?: string;
  SLACK_API_URL?: string;
  SLACK_CLIENT_ID?: string;
  SLACK_CLIENT_SECRET?: string;
  SLACK_SCOPES?: string;
  SLACK_USER_SCOPES?: string;
  SLACK_REDIRECT_URI?: string;
  SLACK_INSTALL_SUCCESS_URL?: string;
  SLACK_OAUTH_ALLOW_NO_STATE?: string;
  SLACK_OAUTH_AUTHORIZE_URL?: string;
  TOKEN_ENCRYPTION_KEY?: string;
  TOKEN_ENCRYPTION_KEY_PREVIOUS?: string;
  RESPONSE_URL_ORIGINS?: string;
  ADMIN_TOKEN?: string;
  ACK_BUDGET_MS?: string;
  SHARD_BUCKETS?: string;
  RECEIPT_RETENTION_HOURS?: string;
  HANDLER_MAX_ATTEMPTS?: string;
}
