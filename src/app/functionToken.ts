import { isObject } from "../inbound/fields";
import type { Inbound } from "../inbound/types";
import type { Effect } from "./effects";

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
