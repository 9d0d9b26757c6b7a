import type { EventOf, Matched, MessageArgs, RunArgs } from "../../src/app/listeners";
import type { Inbound } from "../../src/inbound/types";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { USER } from "./assistantPayloads";
import { eventDelivery } from "./inboundOf";
import { latch } from "./latch";

/** A thread in a channel of its own: its root message (USER's, `text`), and replies in it (by `user`, USER unless told). */
export function thread(team: string, text = "answer one") {
  const root = messageTs();
  const first = eventDelivery(team, channelMessage({ text, ts: root }));
  const channel = first.conversation!.channel;
  const reply = (text: string, user = USER): Inbound =>
    eventDelivery(team, { ...channelMessage({ text, channel, user }), thread_ts: root });
  return { root, channel, first, reply };
}

/** What the answers of `/answer (\w+)/` stream: "answer of NAME: part 1, part 2". */
export const answerOf = (name: string) => `answer of ${name}: part 1, part 2`;

/**
 * An answering listener: streams its answer in two parts; `hold(name)` may make it wait between
 * them (the first answer still streaming when the second message comes), given its run's signal.
 */
export function answering(hold: (name: string, signal: AbortSignal) => Promise<void> = async () => {}) {
  return {
    run: async ({ sayStream, context, signal }: RunArgs<MessageArgs<EventOf<"message">> & Matched>) => {
      const name = context.matches![1]!;
      const stream = sayStream();
      await stream.append({ markdown_text: `answer of ${name}: part 1` });
      await hold(name, signal);
      await stream.append({ markdown_text: ", part 2" });
      await stream.stop();
    },
  };
}

type Events = { subscribe(f: (event: { type: string; key: string }) => void): unknown };

/** Resolves once a delivered (or parked, or stopped) event names `dedupeKey`'s rows, with its type. */
export function settledOf(events: Events, dedupeKey: string): Promise<string> {
  const settled = latch<string>();
  events.subscribe((event) => {
    const ended = event.type === "delivered" || event.type === "parked" || event.type === "stopped";
    if (ended && event.key.startsWith(`${dedupeKey}:run:`)) settled.open(event.type);
  });
  return settled.opened;
}

/** As settledOf, asked later: the type, or "not yet" after `ms` of real time. */
export function settledWithin(events: Events, dedupeKey: string): (ms?: number) => Promise<string> {
  const settled = settledOf(events, dedupeKey);
  return (ms = 1_000) => Promise.race([settled, new Promise<string>((resolve) => setTimeout(() => resolve("not yet"), ms))]);
}
