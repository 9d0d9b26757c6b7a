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

/** What was sealed; one no configured key opens parks the row (no retry opens it). */
async function openSealed(env: TokenKeys, sealed: string, what: string): Promise<string> {
  try {
    return await (await cipherOf(env)).decrypt(sealed);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnreadableEffect(`${what} cannot be opened: ${why}`);
  }
}

/** The plain token of a sealed one. */
export const openFunctionToken = (env: TokenKeys, sealed: string) => openSealed(env, sealed, "the custom step's token");

/**
 * A request body that carries a custom step's token, sealed whole as the token is (relay mode
 * keeps the request to forward it byte for byte); undefined when TOKEN_ENCRYPTION_KEY is not set.
 */
export const sealRequestBody = (env: TokenKeys, body: string) => sealFunctionToken(env, body);

/** A sealed request body, opened to be relayed. */
export const openRequestBody = (env: TokenKeys, sealed: string) => openSealed(env, sealed, "the relayed request");
