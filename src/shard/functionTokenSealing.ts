import { plainFunctionToken, withSealedFunctionToken } from "../app/functionToken";
import { sealFunctionToken, type TokenKeys } from "../auth/functionTokens";
import type { Inbound } from "../inbound/types";
import { log } from "../platform/log";

/** Whether a delivery carries a custom step's plain token, which must be sealed before it is recorded. */
export const carriesFunctionToken = (inbound: Inbound): boolean => plainFunctionToken(inbound) !== undefined;

/**
 * The delivery as it may be stored: its step's token sealed under TOKEN_ENCRYPTION_KEY, as
 * installation tokens are. Without a key the token is dropped, never stored in plain text, and
 * the step's runs call Slack with the workspace's token (as Bolt's `attachFunctionToken: false`).
 */
export async function sealedDelivery(inbound: Inbound, env: TokenKeys): Promise<Inbound> {
  const sealed = await sealFunctionToken(env, plainFunctionToken(inbound) ?? "");
  if (sealed === undefined)
    log("warn", "custom step token not kept: TOKEN_ENCRYPTION_KEY is not set; its runs use the workspace's token", {
      dedupe_key: inbound.dedupeKey,
      workspace: inbound.workspace,
    });
  return withSealedFunctionToken(inbound, sealed);
}
