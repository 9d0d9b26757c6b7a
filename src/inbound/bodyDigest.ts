import { fnv1a32 } from "../platform/hashing";

/** A 64-bit digest (two FNV-1a hashes with different offset bases), hex. */
function digest64(text: string): string {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return `${hex(fnv1a32(text))}${hex(fnv1a32(text, 0x050c5d1f))}`;
}

/**
 * The dedupe key of a request Slack sends without an id (relay mode forwards those too):
 * `{type}:{16 hex digits}` of its bytes — and, when given, of its signed timestamp. Events API
 * envelopes are retried by Slack with the same bytes, so their bytes alone make a retry a
 * duplicate; interactivity is never retried, and the same options load typed twice has the same
 * bytes, so its timestamp keeps the two apart.
 */
export function unkeyedId(type: string, body: string, timestamp?: string | null): string {
  return `${type}:${digest64(timestamp ? `${timestamp}:${body}` : body)}`;
}
