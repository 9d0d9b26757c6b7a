import { InvalidSignature } from "../platform/errors";

/** Slack rejects nothing older than this; we also reject the same distance into the future. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

const encoder = new TextEncoder();

/** A hex digit's value, from its char code (0-9, a-f, A-F; checked by the caller). */
const nibble = (code: number) => (code <= 57 ? code - 48 : (code | 32) - 87);

function hexToBytes(hex: string): Uint8Array | undefined {
  if (hex.length !== 64 || !/^[0-9a-f]+$/i.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  // By char code: a slice and a parseInt per byte were most of verifying's own time.
  for (let i = 0; i < 32; i++) bytes[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return bytes;
}

/** The 32 bytes of a well-formed `v0=` signature, or undefined. */
export const signatureBytes = (signature: string | null) =>
  signature?.startsWith("v0=") ? hexToBytes(signature.slice(3)) : undefined;

/** Imported keys, per secret, for the isolate's lifetime: importing costs more than verifying. */
const keys = new Map<string, CryptoKey>();

async function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    // The key itself is cached, never a promise: promises must not cross request contexts.
    key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

/** The bytes Slack signs: `v0:{timestamp}:{raw body}`. */
function basestring(timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`v0:${timestamp}:`);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return bytes;
}

/**
 * Checks `x-slack-request-timestamp` alone: present, well-formed and within 300 s of now. Cheap,
 * so the edge runs it before reading (up to 1 MiB of) the body. Throws InvalidSignature.
 */
export function assertFreshTimestamp(timestamp: string | null, nowSeconds: number): asserts timestamp is string {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) throw new InvalidSignature("missing or garbled x-slack-request-timestamp");
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    throw new InvalidSignature("timestamp outside the 300 s window");
  }
}

/**
 * Verifies Slack's v0 request signature against the current secret and, during a rotation,
 * the previous one. `crypto.subtle.verify` compares in constant time. Throws InvalidSignature.
 */
export async function verifySignature(options: {
  secrets: readonly string[];
  timestamp: string | null;
  signature: string | null;
  body: Uint8Array;
  nowSeconds: number;
}): Promise<void> {
  const { timestamp, signature } = options;
  assertFreshTimestamp(timestamp, options.nowSeconds);
  const expected = signatureBytes(signature);
  if (!expected) throw new InvalidSignature("missing or garbled x-slack-signature");

  const signed = basestring(timestamp, options.body);
  for (const secret of options.secrets) {
    if (await crypto.subtle.verify("HMAC", await hmacKey(secret), expected, signed)) return;
  }
  throw new InvalidSignature("signature mismatch");
}

/** Computes `v0=…` for a body; used by the Slack simulator and the relay's re-signing. */
export async function signBody(secret: string, timestamp: string, body: string | Uint8Array): Promise<string> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), basestring(timestamp, bytes));
  return `v0=${[...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
