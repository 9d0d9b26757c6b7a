import { fnv1a32 } from "../routing/shardFor";

/**
 * A stable 64-bit digest of a request body (two FNV-1a hashes with different offset bases), hex:
 * the dedupe key of the few requests Slack sends without an id — only ever needed in relay mode,
 * which forwards them too. A retry of the same request has the same bytes, so the same key.
 */
export function bodyDigest(text: string): string {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  return `${hex(fnv1a32(text))}${hex(fnv1a32(text, 0x050c5d1f))}`;
}
