import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import type { PlannedEffect } from "../contract";

/**
 * What a second message in a thread does while the first one's run is still answering (Bolt's
 * chat frameworks' lock per thread): `queue` (default) runs it once the first turn has finished,
 * `interrupt` stops the same user's earlier turns (as their stop button does) and runs it — behind
 * another user's turn, which it leaves alone — `{ policy: "interrupt", of: "anyone" }` stops
 * anyone's, `parallel` runs both at once, `merge` gives the same user's messages that arrive before
 * the turn starts — within its quiet period of the last (`quietMs`, default 1,500) — to one run
 * (`messages`), and otherwise queues. A run suspended in `sleep` / `waitForAction` holds no turn.
 */
export type TurnPolicy =
  | "queue"
  | "interrupt"
  | "parallel"
  | "merge"
  | { policy: "interrupt"; of: "user" | "anyone" }
  | { policy: "merge"; quietMs?: number };

/** `merge`'s quiet period: a burst's turn starts this long after its last message. */
export const MERGE_QUIET_MS = 1_500;
/** The longest quiet period a `merge` turn waits (a longer `quietMs` is cut to it): a turn is an answer, not a schedule. */
export const MERGE_QUIET_MAX_MS = 60_000;

/** Message subtypes that are still a person's message (a file shared with it, a reply also sent to the channel). */
const PERSONS_SUBTYPES = new Set([undefined, "file_share", "thread_broadcast"]);

/** A person's message or mention (`message`, `app_mention`) in a conversation: what a turn, and a turn's budget, is made of. */
export function isPersonsMessage(inbound: Inbound): boolean {
  if (!inbound.conversation) return false;
  if (inbound.type !== "message" && inbound.type !== "app_mention") return false;
  const event = isObject(inbound.payload.event) ? inbound.payload.event : undefined;
  return !!event && event.bot_id === undefined && PERSONS_SUBTYPES.has(event.subtype as string | undefined);
}

/**
 * The turn a listener's run of `inbound` is under `policy`: only a person's message or mention
 * (`message`, `app_mention`; an assistant's userMessage is a message) in a conversation is one.
 * Clicks, the stop button, feedback, options loads, edits and bots' messages never are.
 */
export function turnOf(inbound: Inbound, policy: TurnPolicy): PlannedEffect["turn"] {
  if (policy === "parallel" || !inbound.conversation || !isPersonsMessage(inbound)) return undefined;
  if (policy === "merge") return { conversation: inbound.conversation.key, policy, quietMs: MERGE_QUIET_MS };
  if (typeof policy === "object" && policy.policy === "merge") {
    return { conversation: inbound.conversation.key, policy: "merge", quietMs: quietPeriod(policy.quietMs) };
  }
  if (typeof policy === "string") return { conversation: inbound.conversation.key, policy };
  return { conversation: inbound.conversation.key, policy: "interrupt", ...(policy.of === "anyone" ? { of: "anyone" } : {}) };
}

/** A `merge` turn's quiet period: `quietMs` within 0 … MERGE_QUIET_MAX_MS, the default when not a number. */
function quietPeriod(quietMs: number | undefined): number {
  if (quietMs === undefined || !Number.isFinite(quietMs)) return MERGE_QUIET_MS;
  return Math.min(Math.max(quietMs, 0), MERGE_QUIET_MAX_MS);
}
