const encoder = new TextEncoder();

/** W3C Trace Context, version 00: `00-{trace id: 32 hex}-{parent id: 16 hex}-{flags: 2 hex}`, lower case. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZEROS = /^0+$/;

/** A valid version-00 `traceparent` (ids not all zero), or undefined: a malformed one is dropped, as the spec asks. */
export function validTraceparent(value: string | null | undefined): string | undefined {
  const parts = value ? TRACEPARENT.exec(value.trim()) : null;
  if (!parts || ZEROS.test(parts[1]!) || ZEROS.test(parts[2]!)) return undefined;
  return parts[0];
}

async function hexDigest(text: string, bytes: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return Array.from(digest.subarray(0, bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The `traceparent` of one relay attempt. The trace is the caller's when Slack's request carried
 * one, else derived from the delivery id (SHA-256), so every attempt and retry of a delivery — in
 * any invocation, after any restart — is one trace in the backend's tracing. The parent id names
 * the attempt (delivery id and attempt number), so each attempt is its own parent span there.
 */
export async function relayTraceparent(deliveryId: string, attempt: number, given?: string): Promise<string> {
  const caller = given ? TRACEPARENT.exec(given) : null;
  const traceId = caller?.[1] ?? (await hexDigest(`trace:${deliveryId}`, 16));
  const parentId = await hexDigest(`attempt:${deliveryId}:${attempt}`, 8);
  // Sampled unless the caller said otherwise: a relayed delivery is worth its trace.
  const flags = caller?.[3] ?? "01";
  // An all-zero id is invalid; a digest that gives one (one in 2^64) is nudged.
  return `00-${ZEROS.test(traceId) ? `${traceId.slice(1)}1` : traceId}-${ZEROS.test(parentId) ? `${parentId.slice(1)}1` : parentId}-${flags}`;
}
