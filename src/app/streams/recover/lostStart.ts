import { DeliveryError } from "../../../platform/errors";
import { describeError, type LogFields, log } from "../../../platform/log";
import type { SlackWebClient } from "../../../slack/client";
import { ownMessages } from "../../../slack/ownMessages";
// How far before its checkpoint a lost start's message may carry its ts: the one clock allowance of every lookup.
import { CLOCK_SLACK_MS } from "../../../slack/postedMessages";
import type { StreamedMessage, UnconfirmedCall } from "../record/checkpoint";
import type { ReplyThread } from "../send/streamSender";

interface ThreadMessage extends Record<string, unknown> {
  ts?: string;
  text?: string;
}

/**
 * A text's words as Slack's reads may show them: `&`, `<`, `>` unescaped, then letters and digits
 * alone, so Slack's escaping, its rendering of markdown and a posted reply's "…" change nothing.
 */
export function wordsOf(text: string): string {
  const unescaped = text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return unescaped.replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The message a `chat.startStream` (or a posted message's `chat.postMessage`) opened before an
 * attempt died with its ts unknown, recognised by where and when it is: in the thread, from this
 * app's bot (ownMessages.ts: another app may post the same words), no older than the start's
 * checkpoint, after the reply's last known message, none of its known messages — and showing the
 * start's words (letters and digits, Slack's escaping and formatting set aside), so another run's
 * reply in the thread meanwhile is never taken for it. Exactly one such message is it. None
 * found, or the thread refused for good (no history scope), leaves it to Slack; a lookup that
 * failed otherwise fails the attempt, and the retry looks again.
 */
export async function findLostStart(
  client: SlackWebClient,
  thread: ReplyThread,
  start: UnconfirmedCall,
  known: readonly StreamedMessage[],
  /** The run's delivery ids, on the line this may write. */
  logged: LogFields = {},
  /** How each read waits for its turn (a 429's Retry-After): the reply's sender's one wait. */
  inTurn: <T>(call: () => Promise<T>) => Promise<T> = (call) => call(),
): Promise<string | undefined> {
  if (start.at === undefined) return undefined;
  try {
    const oldest = ((start.at - CLOCK_SLACK_MS) / 1000).toFixed(6);
    const after = Math.max(Number(oldest), ...known.map((k) => Number(k.ts)));
    const { messages = [] } = await inTurn(() =>
      client.call<{ messages?: ThreadMessage[] }>("conversations.replies", {
        channel: thread.channel,
        ts: thread.threadTs,
        oldest,
        limit: 200,
      }),
    );
    const words = wordsOf(start.text);
    const found = messages.filter(
      (m) =>
        typeof m.ts === "string" &&
        m.ts !== thread.threadTs &&
        Number(m.ts) >= Number(oldest) &&
        (known.length === 0 || Number(m.ts) > after) &&
        !known.some((k) => k.ts === m.ts) &&
        wordsOf(m.text ?? "") === words,
    );
    const taken = await ownMessages((method, body) => inTurn(() => client.call(method, body)), thread.channel, found);
    return taken.length === 1 ? taken[0]!.ts : undefined;
  } catch (error) {
    // A lookup that may work later fails the attempt (its start stays unconfirmed, and is looked for again).
    if (!(error instanceof DeliveryError && error.disposition === "park")) throw error;
    // Refused for good (no history scope): the start, if it opened a message, is left to Slack's drop.
    log("warn", "a lost stream start was not looked for", { ...logged, channel: thread.channel, error: describeError(error) });
    return undefined;
  }
}
