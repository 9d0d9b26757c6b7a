import type { ShardApi } from "./shard/api";

/** The shard namespace as callers see it: the RPC surface of shard/api.ts. */
export type ShardNamespace = DurableObjectNamespace<ShardApi & Rpc.DurableObjectBranded>;

/**
 * The bindings and settings the coordinator reads. `wrangler types` generates the deployed
 * Worker's `Env` (worker-configuration.d.ts); secrets are absent there, so they are listed here.
 * Every setting is documented in README.md ("Settings").
 */
export interface CoordinatorEnv {
  SHARD: ShardNamespace;
  SLACK_SIGNING_SECRET?: string;
  SLACK_SIGNING_SECRET_PREVIOUS?: string;
  SLACK_BOT_TOKEN?: string;
  SLACK_API_URL?: string;
  RESPONSE_URL_ORIGINS?: string;
  ADMIN_TOKEN?: string;
  ACK_BUDGET_MS?: string;
  SHARD_BUCKETS?: string;
  RECEIPT_RETENTION_HOURS?: string;
  HANDLER_MAX_ATTEMPTS?: string;
}
