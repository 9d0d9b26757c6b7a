import { channelOf } from "../../inbound/channelOf";
import { isObject, optionalString } from "../../inbound/fields";
import { loggedIds } from "../../inbound/loggedIds";
import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { HandlerMisuse } from "../../platform/errors";
import { waitForClock } from "../../platform/heldClock";
import type { LogFields } from "../../platform/log";
import type { SlackWebClient } from "../../slack/client";
import type { StreamTools } from "../contract";
import { DurableStreamer } from "./durableStreamer";
import { DEFAULT_STREAM_LIMITS, memoryLedger, streamCheckpointName, streamRecordOf } from "./record/checkpoint";
import { ReplyMessages } from "./replyMessages";
import { StreamSender } from "./send/streamSender";
import type { ChatStreamer, SayStreamOptions } from "./streamArguments";

type Json = Record<string, unknown>;

export type SayStream = (options?: SayStreamOptions) => ChatStreamer;

/** Where a run has no durable streams (`app.error`'s handler): `sayStream()` says so. */
export const noStreams: SayStream = () => {
  throw new HandlerMisuse("sayStream() is for a listener's run; use client.chat.startStream here");
};

const field = (source: unknown, name: string): unknown => (isObject(source) ? source[name] : undefined);

/**
 * A delivery's `sayStream()` options by default: its conversation's channel and thread
 * (`inbound.conversation`: the thread of the message, of the assistant thread, of the
 * interaction's message), else just its channel (`sayStream()` then asks for a thread), and the
 * user it replies to with their team, which Slack requires outside DMs.
 */
export function sayStreamDefaults(inbound: Inbound, channel: string | undefined): SayStreamOptions {
  const payload = inbound.payload as Json;
  const event = field(payload, "event");
  const first = (...values: unknown[]) => values.map(optionalString).find((value) => value !== undefined);
  return {
    channel: inbound.conversation?.channel ?? channel,
    thread_ts: inbound.conversation?.threadTs,
    // The assistant thread's user first; else whoever the delivery comes from (inbound/userOf.ts, as a stop knows them).
    recipient_user_id: first(field(field(event, "assistant_thread"), "user_id"), userOf(inbound)),
    recipient_team_id: first(
      field(event, "user_team"),
      field(event, "team"),
      field(field(payload, "user"), "team_id"),
      inbound.teamId,
      payload.team_id,
    ),
  };
}

/** A run's streams: `sayStream` for its arguments, `finish` once its listener has returned, `leaveOpen` once it threw. */
export function runStreams(
  client: SlackWebClient,
  defaults: SayStreamOptions,
  tools: StreamTools = {},
  signal?: AbortSignal,
  logged: LogFields = {},
) {
  const ledger = tools.ledger ?? memoryLedger();
  const limits = tools.limits ?? DEFAULT_STREAM_LIMITS;
  // A wait for a turn is a wait on the clock: a test's held clock is moved to its end (platform/heldClock.ts).
  const wait = tools.sleep ?? ((ms: number) => waitForClock(Date.now() + ms));
  // A stopped run waits for no turn: its next call is refused at once, so the attempt ends now, not after Slack's pace.
  const sleep = (ms: number) => (signal ? Promise.race([wait(ms), abortedOf(signal)]) : wait(ms));
  const streamers: DurableStreamer[] = [];
  return {
    sayStream(options: SayStreamOptions = {}): ChatStreamer {
      const { buffer_size, ...given } = options;
      // An option passed as undefined (`recipient_team_id: event.team` of an event without it) keeps its default.
      const { channel, thread_ts, ...start } = {
        ...defaults,
        ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
      } as SayStreamOptions;
      if (!channel || !thread_ts)
        throw new HandlerMisuse(
          `sayStream() needs a channel and a thread, and this delivery has ${channel ? "no thread" : "no channel"}: pass sayStream({ channel, thread_ts })`,
        );
      const name = streamCheckpointName(streamers.length);
      // Its channel is kept: a parked run's open messages are closed from its checkpoint alone (app/streams/close/parkedCloses.ts).
      const record = { ...streamRecordOf(ledger.read(name)), channel };
      const messages = new ReplyMessages(
        new StreamSender(client, { channel, threadTs: thread_ts }, start, ledger, name, record, sleep, signal, logged),
      );
      const streamer = new DurableStreamer(messages, limits, buffer_size, signal);
      streamers.push(streamer);
      return streamer;
    },
    /** A reply the listener left open is finished by a stop: no message of the run stays streaming. */
    async finish(): Promise<void> {
      for (const streamer of streamers) await streamer.finish();
    },
    /** Its calls in flight end before the attempt does; its streams stay open for the retry to continue. */
    async leaveOpen(): Promise<void> {
      for (const streamer of streamers) await streamer.leaveOpen();
    },
  };
}

/**
 * Runs a listener with its `sayStream`: once it returns, a stream it left open is stopped; when
 * it (or that stop) throws, the calls in flight end first, and its streams stay open for the
 * retry. Once no retry will come (the run is parked, for whatever reason) its park follow-ups
 * close what its checkpoints show open (app/streams/close/parkedCloses.ts).
 */
export async function withStreams(
  inbound: Inbound,
  tools: { client: SlackWebClient; streams?: StreamTools; controls?: { signal: AbortSignal } },
  run: (sayStream: SayStream) => void | Promise<void>,
): Promise<void> {
  const streams = runStreams(
    tools.client,
    sayStreamDefaults(inbound, channelOf(inbound)),
    tools.streams,
    tools.controls?.signal,
    loggedIds(inbound),
  );
  try {
    await run(streams.sayStream);
    await streams.finish();
  } catch (error) {
    await streams.leaveOpen();
    throw error;
  }
}

/** Resolves once `signal` aborts (at once if it has). */
function abortedOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
