import { fromBase64, toBase64 } from "../platform/base64";
import { InvalidSetting, TokenUnreadable } from "../platform/errors";

/**
 * Encryption of tokens at rest (bot and refresh tokens of installations): AES-256-GCM through
 * WebCrypto, under the key in TOKEN_ENCRYPTION_KEY (32 random bytes, base64). Each ciphertext
 * carries the id of its key — the first 8 hex digits of the key's SHA-256 — so the key can be
 * rotated: TOKEN_ENCRYPTION_KEY_PREVIOUS still decrypts what the old key wrote, and everything
 * new is written under the current one. Format: `v1.{key id}.{base64 iv}.{base64 ciphertext+tag}`.
 */
export interface TokenCipher {
  /** Id of the key new ciphertexts are written under. */
  readonly keyId: string;
  encrypt(plaintext: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function importKey(setting: string, base64: string): Promise<{ id: string; key: CryptoKey }> {
  let raw: Uint8Array;
  try {
    raw = fromBase64(base64.trim());
  } catch {
    throw new InvalidSetting(setting, "must be base64 (32 random bytes: `openssl rand -base64 32`)");
  }
  if (raw.byteLength !== 32) throw new InvalidSetting(setting, `must be 32 bytes, base64; got ${raw.byteLength} bytes`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  const id = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { id, key };
}

/** The cipher for TOKEN_ENCRYPTION_KEY (required) and TOKEN_ENCRYPTION_KEY_PREVIOUS (optional). */
export async function tokenCipher(env: {
  TOKEN_ENCRYPTION_KEY?: string;
  TOKEN_ENCRYPTION_KEY_PREVIOUS?: string;
}): Promise<TokenCipher> {
  if (!env.TOKEN_ENCRYPTION_KEY)
    throw new InvalidSetting("TOKEN_ENCRYPTION_KEY", "is not set: tokens are never stored unencrypted");
  const current = await importKey("TOKEN_ENCRYPTION_KEY", env.TOKEN_ENCRYPTION_KEY);
  const keys = new Map([[current.id, current.key]]);
  if (env.TOKEN_ENCRYPTION_KEY_PREVIOUS) {
    const previous = await importKey("TOKEN_ENCRYPTION_KEY_PREVIOUS", env.TOKEN_ENCRYPTION_KEY_PREVIOUS);
    if (!keys.has(previous.id)) keys.set(previous.id, previous.key);
  }
  return {
    keyId: current.id,
    async encrypt(plaintext) {
      // A fresh 96-bit IV per ciphertext: GCM must never reuse one under the same key.
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, current.key, encoder.encode(plaintext)));
      return `v1.${current.id}.${toBase64(iv)}.${toBase64(sealed)}`;
    },
    async decrypt(sealed) {
      const [version, keyId, iv, data] = sealed.split(".");
      const key = keyId === undefined ? undefined : keys.get(keyId);
      if (version !== "v1" || !key || !iv || !data)
        throw new TokenUnreadable(`no configured key opens a token sealed under key ${keyId ?? "?"}`);
      try {
        const opened = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, key, fromBase64(data));
        return decoder.decode(opened);
      } catch {
        // GCM's tag check failed: the ciphertext (or its IV) was altered.
        throw new TokenUnreadable(`token sealed under key ${keyId} failed its integrity check`);
      }
    },
  };
}
