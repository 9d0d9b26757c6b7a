/**
 * Cloudflare's limits on a Durable Object's SQLite that local workerd does not enforce (DESIGN.md
 * §4; Cloudflare's "Durable Objects limits": a string, BLOB or table row at most 2 MB). Checked on
 * the one SQL path (meteredSql.ts), so a test or `npm start` refuses what production refuses.
 */

/** The most bytes a string, BLOB or row may hold: Cloudflare's 2 MB, read as 2,000,000 (the stricter reading). */
export const ROW_BYTES_MAX = 2_000_000;

/** What production's SQLite answers for a value or row over the limit, thrown locally too. */
export class SqliteTooBig extends Error {
  override name = "SqliteTooBig";
  constructor(
    readonly bytes: number,
    what: string,
  ) {
    super(
      `string or blob too big: SQLITE_TOOBIG (${what} of ${bytes.toLocaleString("en-US")} bytes; Cloudflare's limit for a string, BLOB or row is ${ROW_BYTES_MAX.toLocaleString("en-US")})`,
    );
  }
}

/** Whether `error` is a value or row over the limit: ours, or production SQLite's own (its message names SQLITE_TOOBIG). */
export function isTooBig(error: unknown): boolean {
  return error instanceof SqliteTooBig || (error instanceof Error && error.message.includes("SQLITE_TOOBIG"));
}

/** A transaction whose callback returned a promise: its awaits would run outside it. */
export class AsyncTransaction extends Error {
  override name = "AsyncTransaction";
  constructor() {
    super(
      "a transactionSync callback returned a promise: its writes after an await are not in the transaction; write synchronously",
    );
  }
}

/** Refuses a bound value over the limit, before the statement runs. */
export function checkBindings(bindings: readonly unknown[]): void {
  for (const value of bindings) {
    const bytes = boundBytes(value);
    if (bytes > ROW_BYTES_MAX) throw new SqliteTooBig(bytes, "a bound value");
  }
}

/** A bound value's size in bytes (UTF-8 for text), counted only when it could be over the limit. */
function boundBytes(value: unknown): number {
  if (typeof value === "string") {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: most strings are far below the limit uncounted.
    return value.length * 3 <= ROW_BYTES_MAX ? value.length : utf8Bytes(value);
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
  return 0;
}

/** The UTF-8 length of a string (a lone surrogate counts as U+FFFD's 3 bytes, as it is stored). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
