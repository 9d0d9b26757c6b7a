import { fromBase64, toBase64 } from "../platform/base64";

/** An OAuth state lives this long (as in Bolt): long enough to read Slack's consent screen. */
export const STATE_TTL_MS = 10 * 60_000;

/**
 * OAuth states that cost no storage until they are redeemed: `v1.{expires at}.{nonce}.{mac}`,
 * the MAC an HMAC-SHA256 of the rest under a key derived from SLACK_CLIENT_SECRET. The browser
 * carries the state in Slack's authorize URL and in its cookie; single use is the directory's
 * record of redeemed nonces (redeemedStates.ts), each kept only until its state expires.
 */
export interface SignedState {
  nonce: string;
  expiresAt: number;
}

/** Keeps this key apart from any other use of the client secret. */
const KEY_LABEL = "slack-durable-coordinator oauth state v1";
const STATE_SHAPE = /^v1\.(\d{13,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const encoder = new TextEncoder();

const base64url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64url = (text: string) => fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));

async function deriveKey(clientSecret: string): Promise<CryptoKey> {
  const hmac = { name: "HMAC", hash: "SHA-256" };
  const root = await crypto.subtle.importKey("raw", encoder.encode(clientSecret), hmac, false, ["sign"]);
  const raw = await crypto.subtle.sign("HMAC", root, encoder.encode(KEY_LABEL));
  return crypto.subtle.importKey("raw", raw, hmac, false, ["sign", "verify"]);
}

/** One key per isolate (a rotated secret replaces it, so this holds one entry at most). */
let derived: { secret: string; key: Promise<CryptoKey> } | undefined;

function stateKey(clientSecret: string): Promise<CryptoKey> {
  if (derived?.secret !== clientSecret) derived = { secret: clientSecret, key: deriveKey(clientSecret) };
  return derived.key;
}

/** A fresh state, valid for ten minutes from `now`. Stores nothing. */
export async function issueState(clientSecret: string, now: number): Promise<string> {
  const body = `v1.${now + STATE_TTL_MS}.${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
  const mac = await crypto.subtle.sign("HMAC", await stateKey(clientSecret), encoder.encode(body));
  return `${body}.${base64url(new Uint8Array(mac))}`;
}

/** The state's nonce and expiry if this app signed it (expired or not), else null. */
export async function readState(clientSecret: string, state: string): Promise<SignedState | null> {
  const parts = STATE_SHAPE.exec(state);
  if (!parts) return null;
  const [, expiresAt = "", nonce = "", mac = ""] = parts;
  const body = encoder.encode(`v1.${expiresAt}.${nonce}`);
  // crypto.subtle.verify compares in constant time: no timing hint towards a valid MAC.
  const valid = await crypto.subtle.verify("HMAC", await stateKey(clientSecret), fromBase64url(mac), body);
  return valid ? { nonce, expiresAt: Number(expiresAt) } : null;
}
