import type { Shard } from "./shard/Shard";

/**
 * The bindings and settings the coordinator reads. `wrangler types` generates the deployed
 * Worker's `Env` (worker-configuration.d.ts); secrets are absent there, so they are listed here.
 */
export interface CoordinatorEnv {
  SHARD: DurableObjectNamespace<Shard>;
  SLACK_SIGNING_SECRET?: string;
  SLACK_SIGNING_SECRET_PREVIOUS?: string;
  SLACK_BOT_TOKEN?: string;
  SLACK_API_URL?: string;
  ADMIN_TOKEN?: string;
  ACK_BUDGET_MS?: string;
  SHARD_BUCKETS?: string;
  RECEIPT_RETENTION_HOURS?: string;
}
