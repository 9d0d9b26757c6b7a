import type { FakeMessage } from "../../src/testing/fakeSlack";
import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import type { TrafficEvent } from "./slackTraffic";

/** How the streamed requests ended, from the fake Slack's read-back of their threads. */
export interface StreamVerdict {
  /** Streamed requests sent, and those Slack was told 200 for. */
  events: number;
  acked: number;
  /** Their thread's messages, joined in order, are exactly the expected answer, none left streaming. */
  complete: number;
  /** Answers of more than one message (continued before a limit, or after a crash). */
  chains: number;
  messages: number;
  /** Acked, and nothing at all in the thread. */
  lost: number;
  /** The joined text is a strict beginning of the answer: something was dropped at the end. */
  incomplete: number;
  /** The joined text is longer than the answer: something was shown twice. */
  duplicated: number;
  /** Any other text (missing or repeated in the middle). */
  garbled: number;
  /** Messages still streaming at the end, or dropped by Slack and never set by chat.update: a grey pill to the user. */
  frozen: number;
  /** Of the answers not complete (or with a frozen message), those whose run had settled: a defect, not a retry still to come. */
  settledWrong: number;
  /** Stream calls (chat.startStream, appendStream, stopStream) Slack applied and whose answer was lost, by method. */
  lostAnswers: Record<string, number>;
  /** Examples of each failure, for diagnosis. */
  failures: Array<{ eventId: string; thread: string; kind: string; texts: string[]; states: string[] }>;
}

type ReadBack = (channel: string, threadTs: string) => FakeMessage[];

function kindOf(joined: string, expected: string): "complete" | "lost" | "incomplete" | "duplicated" | "garbled" {
  if (joined === expected) return "complete";
  if (joined === "") return "lost";
  if (expected.startsWith(joined)) return "incomplete";
  return joined.length > expected.length ? "duplicated" : "garbled";
}

/**
 * Checks every acked streamed request against what the fake Slack shows in its thread: the
 * messages' texts joined in order must be the expected answer exactly, and no message may be
 * left streaming (or dropped and never finalised).
 */
export function verifyStreams(
  events: readonly TrafficEvent[],
  readBack: ReadBack,
  calls: readonly ServedCall[],
  /** Event ids whose run row is not done yet (streamAttempts.ts): their answers may still be completed. */
  unsettled: readonly string[] = [],
): StreamVerdict {
  const retrying = new Set(unsettled);
  const updated = new Set(
    calls.filter((call) => call.method === "chat.update" && call.outcome === "ok").map((call) => `${call.channel} ${call.ts}`),
  );
  const verdict: StreamVerdict = {
    events: 0,
    acked: 0,
    complete: 0,
    chains: 0,
    messages: 0,
    lost: 0,
    incomplete: 0,
    duplicated: 0,
    garbled: 0,
    frozen: 0,
    settledWrong: 0,
    lostAnswers: {},
    failures: [],
  };
  for (const call of calls)
    if (call.method.endsWith("Stream") && call.applied && call.outcome !== "ok")
      verdict.lostAnswers[call.method] = (verdict.lostAnswers[call.method] ?? 0) + 1;
  for (const event of events) {
    if (event.expected === undefined) continue;
    verdict.events++;
    if (!event.result?.acked) continue;
    verdict.acked++;
    const [channel, threadTs] = event.thread.split("|") as [string, string];
    // The thread's replies only: a fake message whose own ts equals the mention's is another thread's.
    const messages = readBack(channel, threadTs).filter((message) => message.thread_ts === threadTs);
    const frozen = messages.filter(
      (message) => message.streaming || (message.state === "dropped" && !updated.has(`${channel} ${message.ts}`)),
    );
    const kind = kindOf(messages.map((message) => message.text).join(""), event.expected);
    verdict.messages += messages.length;
    if (messages.length > 1) verdict.chains++;
    verdict.frozen += frozen.length;
    if (kind === "complete" && frozen.length === 0) verdict.complete++;
    if (kind !== "complete") verdict[kind]++;
    if ((kind !== "complete" || frozen.length > 0) && !retrying.has(event.eventId)) verdict.settledWrong++;
    if ((kind !== "complete" || frozen.length > 0) && verdict.failures.length < 20) {
      verdict.failures.push({
        eventId: event.eventId,
        thread: event.thread,
        kind: frozen.length > 0 ? `${kind}, ${frozen.length} frozen` : kind,
        texts: messages.map((message) => message.text),
        states: messages.map((message) => message.state),
      });
    }
  }
  return verdict;
}

/** True when no streamed request was lost, cut, repeated or left frozen. */
export function streamsHeld(verdict: StreamVerdict): boolean {
  return verdict.lost + verdict.incomplete + verdict.duplicated + verdict.garbled + verdict.frozen === 0;
}
