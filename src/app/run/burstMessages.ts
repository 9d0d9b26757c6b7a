import { isObject } from "../../inbound/fields";
import type { RunEffect } from "../contract";
import type { ListenerContext } from "../listeners";

/** Slack's `ts` ("1700000000.000100") in an order strings sort by. */
const tsOrder = (event: Record<string, unknown>) => String(event.ts ?? "").padStart(24, "0");

/**
 * A message's or mention's run sees `messages`: every message it answers, oldest first (by `ts`)
 * — under `turns: "merge"` the burst its turn took in (RunEffect.merged), else just its `event`.
 * `event` stays the burst's first as recorded: the message the turn was placed for.
 */
export function withMessages<C extends ListenerContext>(context: C | undefined, effect: RunEffect): C | undefined {
  const { inbound } = effect;
  if (!context || !isObject(context.event) || (inbound.type !== "message" && inbound.type !== "app_mention")) return context;
  const messages = [context.event, ...(effect.merged ?? [])].sort((a, b) => (tsOrder(a) < tsOrder(b) ? -1 : 1));
  return { ...context, messages };
}
