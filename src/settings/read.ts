import { InvalidSetting } from "../platform/errors";

/** An env as the readers see it: wrangler vars and secrets by name. */
export type Vars = Record<string, unknown>;

/**
 * How one setting is read: `read` parses the raw value (unset or empty: the default), throwing
 * InvalidSetting named after the setting; `shown` is the default as the settings reference shows it.
 */
export interface Reader<T> {
  read(vars: Vars, name: string): T;
  shown: string;
}

function raw(vars: Vars, name: string): unknown {
  const value = vars[name];
  return value === undefined || value === "" ? undefined : value;
}

function textOf(vars: Vars, name: string): string | undefined {
  const value = vars[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A text shown to users: unset gives `fallback`; set empty, none (""). */
export function wording(fallback: string): Reader<string> {
  return {
    shown: `\`${fallback}\``,
    read(vars, name) {
      const value = vars[name];
      return typeof value === "string" ? value : fallback;
    },
  };
}

/** A string (a secret, an id); unset: undefined. */
export function text(shown = "—"): Reader<string | undefined> {
  return { read: textOf, shown };
}

/** A number setting: unset gives `fallback`; a value `valid` refuses is an InvalidSetting saying what it `must be`. */
function numeric(fallback: number, valid: (parsed: number) => boolean, mustBe: string): Reader<number> {
  return {
    shown: `\`${fallback}\``,
    read(vars, name) {
      const value = raw(vars, name);
      if (value === undefined) return fallback;
      const parsed = Number(value);
      if (!valid(parsed)) throw new InvalidSetting(name, `must be ${mustBe}, got ${JSON.stringify(value)}`);
      return parsed;
    },
  };
}

/** A positive integer (or, with "number", any positive number: fractions of hours for benchmarks). */
export function positive(fallback: number, kind: "integer" | "number" = "integer"): Reader<number> {
  const finite = kind === "integer" ? Number.isInteger : Number.isFinite;
  return numeric(fallback, (parsed) => finite(parsed) && parsed > 0, `a positive ${kind}`);
}

/** A positive integer, or unset (undefined): its default is decided by other settings, as `shown` says. */
export function positiveOrUnset(shown: string): Reader<number | undefined> {
  const given = positive(0);
  return { shown, read: (vars, name) => (raw(vars, name) === undefined ? undefined : given.read(vars, name)) };
}

/** One of `values`, or unset (undefined): its default is decided by other settings, as `shown` says. */
export function oneOf<const T extends string>(values: readonly T[], shown: string): Reader<T | undefined> {
  return {
    shown,
    read(vars, name) {
      const value = raw(vars, name);
      if (value === undefined) return undefined;
      if (!values.includes(value as T))
        throw new InvalidSetting(name, `must be one of ${values.join(", ")}, got ${JSON.stringify(value)}`);
      return value as T;
    },
  };
}

/** An integer no smaller than `min`. */
export function atLeast(fallback: number, min: number): Reader<number> {
  return numeric(fallback, (parsed) => Number.isInteger(parsed) && parsed >= min, `an integer of at least ${min}`);
}

/** Like `positive`, but 0 is allowed (it switches something off). */
export function nonNegative(fallback: number): Reader<number> {
  return numeric(fallback, (parsed) => Number.isInteger(parsed) && parsed >= 0, "0 or a positive integer");
}

const FLAGS = new Map<unknown, boolean>([
  ["true", true],
  ["false", false],
  // Accepted as aliases: SLACK_PACING was spelled on/off before the settings had one spelling.
  ["on", true],
  ["off", false],
  // A `[vars]` boolean in wrangler.toml arrives as one.
  [true, true],
  [false, false],
]);

/** A switch: `true` or `false` (`on` and `off` are accepted too); anything else is refused, named. */
export function flag(fallback: boolean): Reader<boolean> {
  return {
    shown: `\`${fallback}\``,
    read(vars, name) {
      const value = raw(vars, name);
      if (value === undefined) return fallback;
      const parsed = FLAGS.get(value);
      if (parsed === undefined)
        throw new InvalidSetting(name, `must be true or false (or on or off), got ${JSON.stringify(value)}`);
      return parsed;
    },
  };
}

/** A comma-separated list; unset: empty. */
export function list(shown = "—"): Reader<string[]> {
  return {
    shown,
    read: (vars, name) =>
      (textOf(vars, name) ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
  };
}

function absoluteUrl(vars: Vars, name: string): string | undefined {
  const value = textOf(vars, name);
  if (value === undefined) return undefined;
  try {
    new URL(value);
  } catch {
    throw new InvalidSetting(name, `must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** An absolute URL; unset: the fallback, or undefined without one. */
export function url(): Reader<string | undefined>;
export function url(fallback: string): Reader<string>;
export function url(fallback?: string): Reader<string | undefined> {
  return {
    shown: fallback === undefined ? "—" : `\`${fallback}\``,
    read: (vars, name) => absoluteUrl(vars, name) ?? fallback,
  };
}

/** A comma-separated list of origins (`https://hooks.slack.com`); each entry must be a bare origin. */
export function origins(fallback: string): Reader<string[]> {
  return {
    shown: `\`${fallback}\``,
    read: (vars, name) =>
      (textOf(vars, name) ?? fallback)
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => {
          let origin: string | undefined;
          try {
            origin = new URL(entry).origin;
          } catch {}
          if (origin !== entry.replace(/\/$/, ""))
            throw new InvalidSetting(name, `must list origins like https://hooks.slack.com, got ${JSON.stringify(entry)}`);
          return origin;
        }),
  };
}

/** A 32-byte key, base64 (checked here so a bad key is a configuration error, not a failed install). */
export function aesKey(shown = "—"): Reader<string | undefined> {
  return {
    shown,
    read(vars, name) {
      const value = textOf(vars, name);
      if (value === undefined) return undefined;
      let bytes: number;
      try {
        bytes = atob(value.trim()).length;
      } catch {
        throw new InvalidSetting(name, "must be base64 (32 random bytes: `openssl rand -base64 32`)");
      }
      if (bytes !== 32) throw new InvalidSetting(name, `must be 32 bytes, base64; got ${bytes} bytes`);
      return value;
    },
  };
}
