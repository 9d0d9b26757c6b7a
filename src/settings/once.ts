import type { Vars } from "./read";

/**
 * Memoizes a part's parse per env object — settings are read on the hot path, parsed once per
 * isolate; a failed parse is remembered too, and thrown again.
 */
export function oncePerEnv<T>(parse: (vars: Vars) => T): (env: object) => T {
  const parsed = new WeakMap<object, { value: T } | { error: unknown }>();
  return (env) => {
    let entry = parsed.get(env);
    if (!entry) {
      try {
        entry = { value: parse(env as Vars) };
      } catch (error) {
        entry = { error };
      }
      parsed.set(env, entry);
    }
    if ("error" in entry) throw entry.error;
    return entry.value;
  };
}
