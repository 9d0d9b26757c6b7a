import type { Fault } from "../../src/testing/fakeSlack";

/**
 * Faults played at random rates, for chaos runs against the fake Web API: each rate is the
 * share of calls (0–1) that get that fault. Seeded, so a run can be replayed.
 */
export interface FaultRates {
  /** HTTP 500. */
  serverError?: number;
  /** HTTP 429 with Retry-After. */
  rateLimited?: number;
  /** Never answered; the caller's timeout ends it. */
  hang?: number;
  /** The connection drops. */
  reset?: number;
  /** Slack applies the call and its answer is lost (dropped, never sent, or a 500): of `lostAnswerOf` calls only. */
  lostAnswer?: number;
  /** The methods whose answers may be lost (LOST_ANSWER_METHODS unless told). */
  lostAnswerOf?: readonly string[];
  /** Retry-After of the 429s, in seconds (default 1). */
  retryAfterSeconds?: number;
}

/** A small, fast PRNG (mulberry32): the same seed gives the same sequence in Node and workerd. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Posts, updates and the reads that look for them. Stream calls' answers are lost only when asked
 * (withStreamCalls, `npm run chaos -- --stream-lost-answers`): recovered in their attempt, they lose
 * and duplicate nothing, but add a third to a stream call's unknown outcomes, each a recovery, and
 * CI's 80-s drain has little room on a loaded machine (bench/README.md, "Stream calls' answers lost too").
 */
export const LOST_ANSWER_METHODS: readonly string[] = [
  "chat.postMessage",
  "chat.update",
  "conversations.replies",
  "conversations.history",
];

/** A streamed reply's own calls: its start, appends and stop (its rotations' chat.update is an update). */
export const STREAM_CALLS: readonly string[] = ["chat.startStream", "chat.appendStream", "chat.stopStream"];

/** `rates` with the stream calls' answers lost too, at the same rate as the others'. */
export function withStreamCalls(rates: FaultRates): FaultRates {
  return { ...rates, lostAnswerOf: [...(rates.lostAnswerOf ?? LOST_ANSWER_METHODS), ...STREAM_CALLS] };
}

const LOST: Array<Fault & { lostAnswer: unknown }> = [
  { lostAnswer: "reset" },
  { lostAnswer: "hang" },
  { lostAnswer: "serverError" },
];

/** Returns a picker: for each call, a fault drawn at the given rates, or undefined (answer normally). */
export function randomFaults(
  rates: FaultRates,
  random: () => number = Math.random,
): (call: { method: string }) => Fault | undefined {
  const lostOf = new Set(rates.lostAnswerOf ?? LOST_ANSWER_METHODS);
  const table: Array<[number, Fault | "lost"]> = [
    [rates.serverError ?? 0, { status: 500 }],
    [rates.rateLimited ?? 0, { status: 429, retryAfter: rates.retryAfterSeconds ?? 1 }],
    [rates.hang ?? 0, { hang: true }],
    [rates.reset ?? 0, { reset: true }],
    [rates.lostAnswer ?? 0, "lost"],
  ];
  return (call) => {
    let draw = random();
    for (const [rate, fault] of table) {
      if (draw < rate) {
        if (fault !== "lost") return fault;
        // The same draw picks how the answer is lost, so the run stays one seeded sequence.
        return lostOf.has(call.method) ? LOST[Math.floor((draw / rate) * LOST.length)] : undefined;
      }
      draw -= rate;
    }
    return undefined;
  };
}
