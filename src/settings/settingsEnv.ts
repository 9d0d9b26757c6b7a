import type { SettingName, SettingValue } from "./table";

/** A setting as wrangler passes it: a string (secrets, `.dev.vars`), or a `[vars]` number or boolean where it reads as one. */
type RawSetting<T> = T extends number ? string | number : T extends boolean ? string | boolean : string;

/** Every setting of the settings table (settings/table.ts), each optional. */
export type SettingsEnv = { [N in SettingName]?: RawSetting<SettingValue<N>> };
