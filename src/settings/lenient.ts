import { InvalidSetting } from "../platform/errors";
import type { Vars } from "./read";
import { type SettingName, type SettingValue, setting } from "./table";

/**
 * Reads settings leniently, for the watch's parts (alerts, the automatic spread): a bad value
 * falls back to its default (read from an empty env) and is listed in `problems` — monitoring
 * that is misconfigured must neither stop deliveries nor go quiet about everything else.
 */
export function lenient(vars: Vars) {
  const problems: InvalidSetting[] = [];
  /** The setting's value, or — invalid, or refused by `check` — its default, with the problem listed. */
  const orDefault = <N extends SettingName>(name: N, check?: (value: SettingValue<N>) => void): SettingValue<N> => {
    try {
      const value = setting(vars, name);
      check?.(value);
      return value;
    } catch (problem) {
      if (!(problem instanceof InvalidSetting)) throw problem;
      problems.push(problem);
      return setting({}, name);
    }
  };
  return { orDefault, problems };
}
