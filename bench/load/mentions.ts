import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";

/** One prepared Slack delivery and the thread its reply must land in. */
export interface PreparedEvent {
  /** `{channel}|{ts}`: the fake Web API sees the reply as chat.postMessage with this channel and thread_ts. */
  thread: string;
  body: string;
  headers: Record<string, string>;
}

/** Channels per run by default: replies spread over a few rate keys, as in a real workspace. */
const CHANNELS = 8;

/** The thread a reply to this mention goes to. */
export function threadOf(channel: string, ts: string): string {
  return `${channel}|${ts}`;
}

/**
 * Signs `count` app_mention deliveries up front (so signing costs nothing during the run),
 * spread round-robin over the workspaces; every event has its own event_id and message ts.
 */
export async function prepareMentions(options: {
  count: number;
  workspaces: readonly string[];
  secret: string;
  runId: string;
  channels?: number;
}): Promise<PreparedEvent[]> {
  const channels = options.channels ?? CHANNELS;
  const prepared: PreparedEvent[] = [];
  for (let i = 0; i < options.count; i++) {
    const teamId = options.workspaces[i % options.workspaces.length]!;
    const channel = `C${options.runId}${i % channels}`;
    const event = appMention({ channel });
    const delivery = await signedEvent(eventCallback(event, { teamId }), { secret: options.secret });
    prepared.push({ thread: threadOf(channel, String(event.ts)), body: delivery.body, headers: delivery.headers });
  }
  return prepared;
}
