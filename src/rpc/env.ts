import type { SettingName, SettingValue } from "../settings/table";
import type { InstallationsApi } from "./installations";
import type { ShardApi } from "./shard";

/** The shard namespace as callers see it: the RPC surface of shard/rpc.ts. */
export type ShardNamespace = DurableObjectNamespace<ShardApi & Rpc.DurableObjectBranded>;

/** The installation store's namespace (OAuth mode): one object per installation, and the directory. */
export type InstallationsNamespace = DurableObjectNamespace<InstallationsApi & Rpc.DurableObjectBranded>;

/** A setting as wrangler passes it: a string (secrets, `.dev.vars`), or a `[vars]` number or boolean where it reads as one. */
type RawSetting<T> = T extends number ? string | number : T extends boolean ? string | boolean : string;

/** Every setting of the settings table (src/settings/table.ts), each optional. */
export type SettingsEnv = { [N in SettingName]?: RawSetting<SettingValue<N>> };

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
