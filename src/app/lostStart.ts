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

/**
 * The message a `chat.startStream` opened before an attempt died with its ts unknown: in the
 * thread, posted by this app since the start was written ahead, showing exactly the start's text,
 * and none of the reply's known messages. Only a single such message is taken (two could be
 * another run's); none found, or the thread unreadable (no history scope), leaves it to Slack.
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
        m.bot_id !== undefined &&
        (ours === undefined || m.bot_id === ours) &&
        (m.text ?? "") === start.text &&
        !known.some((k) => k.ts === m.ts),
    );
    return found.length === 1 ? found[0]!.ts : undefined;
  } catch (error) {
    log("warn", "a lost stream start was not looked for", { channel: target.channel, error: describeError(error) });
    return undefined;
  }
}
