import { appMention, eventCallback } from "../../src/testing/deliveries";
import { countedTo, countRequest, sleepRequest } from "../effects/countedAnswer";
import { threadOf } from "../load/mentions";
import { deliverLikeSlack, type SlackDeliveryResult } from "./slackRetries";

/** One event Slack tried to deliver, and how that went. */
export interface TrafficEvent {
  eventId: string;
  workspace: string;
  thread: string;
  /** A streamed request's complete answer, as its thread must read back; none for a plain mention. */
  expected?: string;
  /** A plain mention whose answer comes after a durable sleep. */
  sleeps?: boolean;
  result?: SlackDeliveryResult;
}

/** Every `every`-th event asks for a streamed answer: count to `n`, `pauseMs` between numbers. */
export interface StreamShare {
  every: number;
  n: number;
  pauseMs: number;
}

/** Every `every`-th plain mention sleeps durably `ms` between its placeholder and its answer. */
export interface SleepShare {
  every: number;
  ms: number;
}

export interface TrafficOptions {
  url: string;
  secret: string;
  rate: number;
  durationMs: number;
  workspaces: readonly string[];
  /** Divides Slack's retry schedule (0 s, 1 min, 5 min). */
  compression: number;
  /** Seeded randomness for the retries' ±20 % jitter, so events that failed together do not retry in lockstep. */
  random: () => number;
  streams?: StreamShare;
  sleeps?: SleepShare;
  onProgress?: (events: readonly TrafficEvent[]) => void;
}

const CHANNELS = 8;

/**
 * Slack-like traffic: app_mention events offered open-loop at `rate` for `durationMs` (a share
 * of them asking for a streamed answer), each one
 * delivered and, when not answered 2xx within 3 s, retried on Slack's (compressed) schedule.
 * Resolves when every event is acked or out of retries.
 */
export async function runSlackTraffic(options: TrafficOptions): Promise<TrafficEvent[]> {
  const events: TrafficEvent[] = [];
  const deliveries: Array<Promise<void>> = [];
  const count = Math.round((options.rate * options.durationMs) / 1000);
  const start = Date.now();
  const reporter = setInterval(() => options.onProgress?.(events), 5000);
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / options.rate;
    if (due > Date.now()) await new Promise((at) => setTimeout(at, due - Date.now()));
    const workspace = options.workspaces[i % options.workspaces.length]!;
    const channel = `C${workspace}${i % CHANNELS}`;
    const streams = options.streams;
    const streamed = streams !== undefined && i % streams.every === streams.every - 1;
    const sleeps = options.sleeps;
    const sleeping = !streamed && sleeps !== undefined && i % sleeps.every === 0;
    const text = streamed ? countRequest(streams.n, streams.pauseMs) : sleeping ? sleepRequest(sleeps.ms) : undefined;
    const mention = appMention({ channel, ...(text ? { text } : {}) });
    const envelope = eventCallback(mention, { teamId: workspace });
    const event: TrafficEvent = {
      eventId: String(envelope.event_id),
      workspace,
      thread: threadOf(channel, String(mention.ts)),
      ...(streamed ? { expected: countedTo(streams.n) } : {}),
      ...(sleeping ? { sleeps: true } : {}),
    };
    events.push(event);
    deliveries.push(
      deliverLikeSlack({
        body: JSON.stringify(envelope),
        contentType: "application/json",
        secret: options.secret,
        compression: options.compression,
        jitter: 0.2,
        random: options.random,
        send: (delivery, signal) =>
          fetch(options.url, { method: "POST", headers: delivery.headers, body: delivery.body, signal }),
      }).then((result) => {
        event.result = result;
      }),
    );
  }
  await Promise.all(deliveries);
  clearInterval(reporter);
  options.onProgress?.(events);
  return events;
}
