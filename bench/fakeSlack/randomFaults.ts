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

/** Returns a picker: for each call, a fault drawn at the given rates, or undefined (answer normally). */
export function randomFaults(rates: FaultRates, random: () => number = Math.random): () => Fault | undefined {
  const table: Array<[number, Fault]> = [
    [rates.serverError ?? 0, { status: 500 }],
    [rates.rateLimited ?? 0, { status: 429, retryAfter: rates.retryAfterSeconds ?? 1 }],
    [rates.hang ?? 0, { hang: true }],
    [rates.reset ?? 0, { reset: true }],
  ];
  return () => {
    let draw = random();
    for (const [rate, fault] of table) {
      if (draw < rate) return fault;
      draw -= rate;
    }
    return undefined;
  };
}
