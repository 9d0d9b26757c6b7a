import { fromBase64, toBase64 } from "../platform/base64";
import { Rejection } from "../platform/errors";

/**
 * The cursor of a paged admin list (`GET /admin/api/parked`, `GET /admin/api/events`): the last
 * item a page gave, as base64url JSON — opaque to clients, read back only if `valid` accepts it.
 */
export function cursorText(cursor: object): string {
  return toBase64(new TextEncoder().encode(JSON.stringify(cursor)))
    .replaceAll("+", "-")
    .replaceAll("/", "_");
}

/** The cursor a client sent back (none: the first page); one this API did not give is a 400. */
export function cursorFrom<C>(raw: string | null, valid: (cursor: Record<string, unknown>) => boolean): C | null {
  if (!raw) return null;
  try {
    const cursor = JSON.parse(new TextDecoder().decode(fromBase64(raw.replaceAll("-", "+").replaceAll("_", "/"))));
    if (typeof cursor === "object" && cursor !== null && valid(cursor)) return cursor as C;
  } catch {}
  throw new Rejection(400, "cursor is not one this API gave");
}
