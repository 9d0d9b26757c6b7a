import type { PlannedEffect, RunEffect, TurnLimit } from "../../app/contract";
import { eventOf } from "../../inbound/eventOf";
import type { Inbound } from "../../inbound/types";

/** The outbox name of a refused turn's ephemeral: one per delivery, whichever of its runs were refused. */
export const TURN_REFUSED = "turn:refused";

/** When `limit` resets, as Slack shows a date in the reader's own time zone (the fallback in UTC). */
function resetTime(limit: TurnLimit): string {
  const iso = new Date(limit.resetsAt).toISOString();
  const fallback = limit.window === "minute" ? `${iso.slice(11, 16)} UTC` : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  const format = limit.window === "minute" ? "{time}" : "{date_short_pretty} at {time}";
  return `<!date^${Math.floor(limit.resetsAt / 1000)}^${format}|${fallback}>`;
}

/** The coordinator's words for a refused turn: whose limit, how many per what, and when it resets. */
export function turnRefusedText(limit: TurnLimit): string {
  const whose = limit.scope === "user" ? "you have reached your" : "this workspace has reached its";
  const turns = limit.max === 1 ? "message" : "messages";
  return `Sorry, ${whose} limit of ${limit.max} ${turns} a ${limit.window}, so this one was not answered. It resets at ${resetTime(limit)}.`;
}

/**
 * What a turn refused for `limit` becomes: its listener's own answer (`exceeded`: the same run with
 * the limit, no turn, not counted), or the user's ephemeral in the message's channel — in its thread
 * when it is in one — unless the delivery has one already (`told`) or names no user (then nothing).
 */
export function refusalOf(planned: PlannedEffect, limit: TurnLimit, inbound: Inbound, told: boolean): PlannedEffect | undefined {
  const { turn: _turn, budget, ...refused } = planned;
  if (budget?.ownAnswer && planned.effect.type === "run")
    return { ...refused, effect: { ...planned.effect, limit } satisfies RunEffect };
  const channel = inbound.conversation?.channel;
  if (told || !budget?.user || !channel) return undefined;
  const threadTs = eventOf(inbound)?.thread_ts;
  const thread = typeof threadTs === "string" ? { thread_ts: threadTs } : {};
  const body = { channel, user: budget.user, ...thread, text: turnRefusedText(limit) };
  return { name: TURN_REFUSED, scope: planned.scope, effect: { type: "slack.api", method: "chat.postEphemeral", body } };
}
