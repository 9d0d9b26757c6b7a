import { UnreadableEffect } from "../platform/errors";
import { type TokenCipher, tokenCipher } from "./tokenCipher";

/** The keys tokens at rest are sealed under (TOKEN_ENCRYPTION_KEY, and _PREVIOUS while rotating). */
export interface TokenKeys {
  TOKEN_ENCRYPTION_KEY?: string;
  TOKEN_ENCRYPTION_KEY_PREVIOUS?: string;
}

/** One cipher per env object: its keys are imported once per isolate. */
const ciphers = new WeakMap<object, Promise<TokenCipher>>();

function cipherOf(env: TokenKeys): Promise<TokenCipher> {
  let cipher = ciphers.get(env);
  if (!cipher) {
    cipher = tokenCipher(env);
    ciphers.set(env, cipher);
  }
  return cipher;
}

/**
 * A custom step's token (`bot_access_token`) sealed as installation tokens are; undefined when
 * TOKEN_ENCRYPTION_KEY is not set — the token is then not kept at all.
 */
export async function sealFunctionToken(env: TokenKeys, token: string): Promise<string | undefined> {
  if (!env.TOKEN_ENCRYPTION_KEY) return undefined;
  return (await cipherOf(env)).encrypt(token);
}

/** The plain token of a sealed one; a token no configured key opens parks the row (no retry opens it). */
export async function openFunctionToken(env: TokenKeys, sealed: string): Promise<string> {
  try {
    return await (await cipherOf(env)).decrypt(sealed);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnreadableEffect(`the custom step's token cannot be opened: ${why}`);
  }
}
