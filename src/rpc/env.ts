import type { SettingsEnv } from "../settings/settingsEnv";
import type { InstallationsApi } from "./installations";
import type { ShardApi } from "./shard";

/** The shard namespace as callers see it: the RPC surface of rpc/shard.ts. */
export type ShardNamespace = DurableObjectNamespace<ShardApi & Rpc.DurableObjectBranded>;

/** The installation store's namespace (OAuth mode): one object per installation, and the directory. */
export type InstallationsNamespace = DurableObjectNamespace<InstallationsApi & Rpc.DurableObjectBranded>;

/**
 * The bindings and settings the coordinator reads. `wrangler types` generates the deployed
 * Worker's `Env` (worker-configuration.d.ts); secrets are absent there, so the settings come
 * from the settings table, each documented in docs/reference/settings.md.
 */
export interface CoordinatorEnv extends SettingsEnv {
  SHARD: ShardNamespace;
  /** Required in OAuth mode only. */
  INSTALLATIONS?: InstallationsNamespace;
}
