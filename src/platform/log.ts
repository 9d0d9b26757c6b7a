export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * One JSON object per line, for `wrangler tail` and Logpush. Callers pass identifiers and
 * measurements only — never secrets, tokens or payloads.
 */
export function log(level: "info" | "warn" | "error", msg: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/**
 * A readable, bounded description of anything thrown: `Name: message`, and with `where` also
 * the first stack frame (where it was thrown), for a reason stored on an outbox row.
 */
export function describeError(error: unknown, where = false): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (!where) return text.slice(0, 500);
  const frame =
    error instanceof Error
      ? error.stack
          ?.split("\n")
          .find((line) => line.trim().startsWith("at "))
          ?.trim()
      : undefined;
  return text.slice(0, 300) + (frame ? ` (${frame.slice(0, 200)})` : "");
}
