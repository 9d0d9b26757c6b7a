import { isObject } from "../../inbound/fields";
import type { Inbound, RawRequest } from "../../inbound/types";
import type { Effect } from "../contract";

type Json = Record<string, unknown>;

/**
 * Where a custom step's token travels: Slack sends `bot_access_token` in a `function_executed`
 * event and in the interactions of the step's messages and modals. The shard replaces it with
 * its sealed form (`Inbound.functionToken`) before anything is stored; performing a row opens it
 * again for that row's client (Bolt's `attachFunctionToken`).
 */

/** The object that carries the token: the event of an event delivery, else the interaction payload. */
function holderOf(inbound: Inbound): Json | undefined {
  if (inbound.kind === "event") return isObject(inbound.payload.event) ? inbound.payload.event : undefined;
  return inbound.kind === "interaction" ? inbound.payload : undefined;
}

/** The plain token Slack sent with this delivery, if any. */
export function plainFunctionToken(inbound: Inbound): string | undefined {
  const token = holderOf(inbound)?.bot_access_token;
  return typeof token === "string" && token !== "" ? token : undefined;
}

/** `inbound` without its plain token, carrying `sealed` instead (or no token, when it could not be sealed). */
export function withSealedFunctionToken(inbound: Inbound, sealed: string | undefined): Inbound {
  const holder = holderOf(inbound);
  if (!holder) return inbound;
  const { bot_access_token: _plain, ...kept } = holder;
  const payload = inbound.kind === "event" ? { ...inbound.payload, event: kept } : kept;
  return sealed === undefined ? { ...inbound, payload } : { ...inbound, payload, functionToken: sealed };
}

/** The sealed function token a row is performed with, instead of the workspace's token. */
export function sealedFunctionTokenOf(effect: Effect): string | undefined {
  if (effect.type === "run") return effect.inbound.functionToken;
  if (effect.type === "function.complete") return effect.functionToken;
  return undefined;
}

/**
 * Without a key to seal it, the request relay mode forwards goes without the token: as Slack
 * sent it with the token's text cut out (`"bot_access_token":""`, every other byte kept), so
 * the backend's step calls Slack with its own token, as the runs do. Slack writes a token as is;
 * a body that does not (escaped, not UTF-8) is written anew from the payload kept without it.
 */
export function rawWithoutToken(raw: RawRequest, token: string, kept: Json): RawRequest {
  if (raw.encoding === undefined && token !== "" && raw.body.includes(token))
    return { ...raw, body: raw.body.replaceAll(token, "") };
  const json = JSON.stringify(kept);
  const form = raw.contentType.startsWith("application/x-www-form-urlencoded");
  return { body: form ? new URLSearchParams({ payload: json }).toString() : json, contentType: raw.contentType };
}
