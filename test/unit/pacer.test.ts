import { describe, expect, it } from "vitest";
import { PACED_MINUTE_MS, Pacer } from "../../src/pacing/pacer";
import { POST_MESSAGE_PER_CHANNEL, paceOf, STREAM_BURST, streamEndsPace } from "../../src/pacing/tiers";

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

  it("stream starts: Slack's burst at once, then one every 3 s, and never more than Tier 2's 20 in any minute", () => {
    const pacer = new Pacer();
    const pace = paceOf("chat.startStream", { channel: "C1" })!.pace;
    expect(pace).toEqual({ perSecond: 20 / 60, burst: STREAM_BURST, perMinute: 20 });
    const slots = Array.from({ length: 26 }, (_, i) => pacer.reserve("T|chat.startStream", pace, `row${i}`, 0));
    // Five at once, then 3 s apart: 20 by 45 s.
    expect(slots.slice(0, 20).map(Math.round)).toEqual([0, 0, 0, 0, 0, ...Array.from({ length: 15 }, (_, i) => (i + 1) * 3000)]);
    // The 21st waits for the burst to leave the minute (GCRA alone would give it 48 s), and the burst comes again.
    expect(slots.slice(20).map(Math.round)).toEqual(
      Array.from({ length: 5 }, () => PACED_MINUTE_MS).concat(PACED_MINUTE_MS + 3000),
    );
    for (let i = 0; i < slots.length; i++)
      expect(slots.filter((slot) => slot > slots[i]! - PACED_MINUTE_MS && slot <= slots[i]!).length).toBeLessThanOrEqual(20);
    // SLACK_STREAM_BURST: 1 spreads them evenly; more than the minute's count is the minute's count.
    expect(paceOf("chat.stopStream", {}, 1)?.pace).toEqual({ perSecond: 20 / 60, burst: 1, perMinute: 20 });
    expect(streamEndsPace(50).burst).toBe(20);
  });

  it("with a minute's cap, a 429 moves the minute's given slots back with the other turns, and the refused call's retry counts in its minute", () => {
    const pacer = new Pacer();
    const pace = { perSecond: 1, burst: 1, perMinute: 3 };
    const key = "T|chat.startStream";
    expect(["a", "b", "c"].map((row) => pacer.reserve(key, pace, row, 0))).toEqual([0, 1_000, 2_000]);
    // b's call is answered 429 at 1 s, Retry-After 10 s: b retries at 11 s, c moves to 12 s.
    pacer.blockUntil(key, 11_000, "b", 1_000);
    expect(pacer.reserve(key, pace, "c", 1_500)).toBe(12_000);
    const d = pacer.reserve(key, pace, "d", 1_500);
    const e = pacer.reserve(key, pace, "e", 1_500);
    // Slack sees a at 0, b at 11 s, c at 12 s, then d and e: never more than 3 in a minute.
    const seen = [0, 11_000, 12_000, d, e];
    for (const at of seen)
      expect(seen.filter((other) => other > at - PACED_MINUTE_MS && other <= at).length).toBeLessThanOrEqual(3);
    expect(e).toBeGreaterThanOrEqual(11_000 + PACED_MINUTE_MS);
  });
});
