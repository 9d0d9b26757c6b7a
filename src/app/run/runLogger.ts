import { describeError, type LogFields, log } from "../../platform/log";
import type { RunLogger } from "../listeners";

/** The longest a logged value is kept, once written as JSON: a log line is not a payload store. */
const VALUE_CHARS = 1_000;

/**
 * One log line from what Bolt-shaped code passes a logger: `logger.error(err)`,
 * `logger.info("sent", { ts })`, `logger.warn("retrying in", 3, "s")`. Strings and numbers
 * make the message (an error alone makes it of its name and message); an object's fields are
 * the line's fields; a thrown value is `error` (its name, message and where it was thrown), more
 * than one `error`, `error_2`, …; anything else is kept as JSON, bounded.
 */
export function lineOf(values: readonly unknown[]): { msg: string; fields: LogFields } {
  const words: string[] = [];
  const fields: LogFields = {};
  let errors = 0;
  for (const value of values) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
      words.push(String(value));
    } else if (value instanceof Error) {
      errors++;
      fields[errors === 1 ? "error" : `error_${errors}`] = describeError(value, true);
      if (words.length === 0 && errors === 1) words.push(describeError(value));
    } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, field] of Object.entries(value)) fields[name] = fieldOf(field);
    } else if (value !== undefined) {
      fields[`value_${Object.keys(fields).length + 1}`] = fieldOf(value);
    }
  }
  return { msg: words.join(" ") || "log", fields };
}

function fieldOf(value: unknown): LogFields[string] {
  if (value === null || value === undefined) return value;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Error) return describeError(value, true);
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, VALUE_CHARS);
  } catch {
    // A cycle, a BigInt inside: its description instead.
    return String(value).slice(0, VALUE_CHARS);
  }
}

/** Bolt's `logger` for a run: the coordinator's JSON log lines, each with the delivery's `keys`. */
export function runLogger(keys: LogFields): RunLogger {
  const line =
    (level: "info" | "warn" | "error") =>
    (...values: unknown[]) => {
      const { msg, fields } = lineOf(values);
      log(level, msg, { ...fields, ...keys });
    };
  // log() has no debug level; a debug line keeps the same JSON shape.
  const debug = (...values: unknown[]) => {
    const { msg, fields } = lineOf(values);
    console.debug(JSON.stringify({ level: "debug", msg, ...fields, ...keys }));
  };
  return { debug, info: line("info"), warn: line("warn"), error: line("error") };
}
