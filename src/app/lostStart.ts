import { DeliveryError } from "../platform/errors";
import { describeError, log } from "../platform/log";
import type { SlackWebClient } from "../slack/client";
import type { StreamedMessage, StreamTarget, UnconfirmedCall } from "./streamCheckpoints";

interface ThreadMessage {
  ts?: string;
  bot_id?: string;
  text?: string;
}

/** How far before its checkpoint a lost start's message may carry its ts (clocks of shard and Slack differ). */
const CLOCK_SLACK_MS = 10_000;

/** Text as Slack's reads show it: `&`, `<`, `>` escaped; a posted answer without text shows an ellipsis. */
function asShown(call: UnconfirmedCall): string {
  if (call.op === "post" && call.text === "") return "…";
  return call.text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * The message a `chat.startStream` (or a posted answer's `chat.postMessage`) opened before an
 * attempt died with its ts unknown, recognised by where and when it is, not by its text: in the
 * thread, from this app's bot, no older than the start's checkpoint, after the reply's last known
 * message, and none of its known messages. One such message is it; of several (another run of
 * the app answering in the thread meanwhile) only the one showing the start's text is taken.
 * None found, or the thread refused for good (no history scope), leaves it to Slack; a lookup
 * that failed otherwise fails the attempt, and the retry looks again.
 */
export async function findLostStart(
  client: SlackWebClient,
  target: StreamTarget,
  start: UnconfirmedCall,
  known: readonly StreamedMessage[],
): Promise<string | undefined> {
  if (start.at === undefined) return undefined;
  try {
    const { bot_id: ours } = await client.call<{ bot_id?: string }>("auth.test", {});
    const oldest = ((start.at - CLOCK_SLACK_MS) / 1000).toFixed(6);
    const after = Math.max(Number(oldest), ...known.map((k) => Number(k.ts)));
    const { messages = [] } = await client.call<{ messages?: ThreadMessage[] }>("conversations.replies", {
      channel: target.channel,
      ts: target.thread_ts,
      oldest,
      limit: 200,
    });
    const found = messages.filter(
      (m) =>
        typeof m.ts === "string" &&
        m.ts !== target.thread_ts &&
        Number(m.ts) >= Number(oldest) &&
        (known.length === 0 || Number(m.ts) > after) &&
        m.bot_id !== undefined &&
        (ours === undefined || m.bot_id === ours) &&
        !known.some((k) => k.ts === m.ts),
    );
    const shown = asShown(start);
    const taken = found.length === 1 ? found : found.filter((m) => m.text === shown || m.text === start.text);
    return taken.length === 1 ? taken[0]!.ts : undefined;
  } catch (error) {
    // A lookup that may work later fails the attempt (its start stays unconfirmed, and is looked for again).
    if (!(error instanceof DeliveryError && error.disposition === "park")) throw error;
    // Refused for good (no history scope): the start, if it opened a message, is left to Slack's drop.
    log("warn", "a lost stream start was not looked for", { channel: target.channel, error: describeError(error) });
    return undefined;
  }
}
