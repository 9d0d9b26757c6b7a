import { plainFunctionToken, rawWithoutToken, withSealedFunctionToken } from "../app/functions";
import { sealFunctionToken, sealRequestBody, type TokenKeys } from "../auth/functionTokens";
import type { Inbound } from "../inbound/types";
import { log } from "../platform/log";

/** Whether a delivery carries a custom step's plain token, which must be sealed before it is recorded. */
export const carriesFunctionToken = (inbound: Inbound): boolean => plainFunctionToken(inbound) !== undefined;

/**
 * The delivery as it may be stored: its step's token sealed under TOKEN_ENCRYPTION_KEY, as
 * installation tokens are, and in relay mode the request Slack sent sealed whole (it is opened
 * only to be forwarded, byte for byte). Without a key the token is dropped, never stored in
 * plain text: the step's runs call Slack with the workspace's token (as Bolt's
 * `attachFunctionToken: false`) and the relayed request goes without it.
 */
export async function sealedDelivery(inbound: Inbound, env: TokenKeys): Promise<Inbound> {
  const plain = plainFunctionToken(inbound) ?? "";
  const sealed = await sealFunctionToken(env, plain);
  if (sealed === undefined)
    log("warn", "custom step token not kept: TOKEN_ENCRYPTION_KEY is not set; its runs use the workspace's token", {
      dedupe_key: inbound.dedupeKey,
      workspace: inbound.workspace,
      ...(inbound.raw ? { relayed: "without the token" } : {}),
    });
  const kept = withSealedFunctionToken(inbound, sealed);
  if (!inbound.raw) return kept;
  const body = await sealRequestBody(env, inbound.raw.body);
  const raw =
    body === undefined ? rawWithoutToken(inbound.raw, plain, kept.payload) : { ...inbound.raw, body, sealed: true as const };
  return { ...kept, raw };
}
