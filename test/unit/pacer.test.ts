import { describe, expect, it } from "vitest";
import { Pacer } from "../../src/pacing/pacer";
import { POST_MESSAGE_PER_CHANNEL, paceOf } from "../../src/pacing/tiers";

describe("the pacer (GCRA with kept slots)", () => {
  it("gives a burst at once, then one slot per interval, in the order asked; a returning holder keeps its slot", () => {
    const pacer = new Pacer();
    const slots = Array.from({ length: 6 }, (_, i) =>
      pacer.reserve("T|chat.postMessage:C1", POST_MESSAGE_PER_CHANNEL, `row${i}`, 0),
    );
    const interval = 1000 / POST_MESSAGE_PER_CHANNEL.perSecond;
    expect(slots.map(Math.round)).toEqual([0, 0, 0, interval, 2 * interval, 3 * interval].map(Math.round));
    // row4 comes back early (its slot is 2 intervals on): the same slot, not a new one after row5's.
    const row4 = slots[4]!;
    expect(pacer.reserve("T|chat.postMessage:C1", POST_MESSAGE_PER_CHANNEL, "row4", 500)).toBe(row4);
    // At its slot it goes, and the slot is spent: asking again queues behind everyone.
    expect(pacer.reserve("T|chat.postMessage:C1", POST_MESSAGE_PER_CHANNEL, "row4", row4)).toBe(row4);
    expect(pacer.reserve("T|chat.postMessage:C1", POST_MESSAGE_PER_CHANNEL, "row4", row4)).toBeCloseTo(4 * interval);
    // Another channel has its own bucket.
    expect(pacer.reserve("T|chat.postMessage:C2", POST_MESSAGE_PER_CHANNEL, "row9", 0)).toBe(0);
  });

  it("a 429's Retry-After holds the whole bucket until then; the refused call keeps its turn, the others keep their order", () => {
    const pacer = new Pacer();
    const pace = POST_MESSAGE_PER_CHANNEL;
    const interval = 1000 / pace.perSecond;
    const bucket = "T|chat.postMessage:C1";
    for (const row of ["a", "b", "c", "d"]) pacer.reserve(bucket, pace, row, 0); // a–c now, d one interval on
    // a's call is answered 429, Retry-After 30 s.
    expect(pacer.blockUntil(bucket, 30_000, "a", 0)).toBe(30_000);
    expect(pacer.reserve(bucket, pace, "d", 100)).toBe(interval + 30_000); // moved back, still after a
    expect(pacer.reserve(bucket, pace, "a", 30_000)).toBe(30_000); // a goes first when the wait is over
    expect(pacer.reserve(bucket, pace, "e", 1_000)).toBeGreaterThan(interval + 30_000); // a newcomer queues behind d
  });

  it("paces by Slack's published limits: chat.postMessage per channel, other methods per method by tier", () => {
    expect(paceOf("chat.postMessage", { channel: "C1" })).toEqual({
      rateKey: "chat.postMessage:C1",
      pace: { perSecond: 0.95, burst: 3 }, // a little under Slack's 1/s, for network jitter
    });
    // chat.update is Tier 3 (50+ per minute), not the per-channel limit, spread evenly (an answer updated in place, flush after flush).
    expect(paceOf("chat.update", { channel: "C1" })).toEqual({ rateKey: "chat.update", pace: { perSecond: 50 / 60, burst: 1 } });
    expect(paceOf("views.open", {})?.pace.perSecond).toBeCloseTo(100 / 60);
    expect(paceOf("some.unknownMethod", {})).toBeNull();
  });
});
