import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Pacer } from "../src/pacing/pacer";
import { POST_MESSAGE_PER_CHANNEL, paceOf } from "../src/pacing/tiers";
import { bucketStub, deliver, newWorkspace, receiptsByBucket, signedBy } from "./support/coordinator";
import { appMention, eventCallback, signedEvent } from "./support/slackSimulator";
import { useFakeSlack } from "./support/useFakeSlack";

const slack = useFakeSlack();

/** Makes `team` a workspace of `buckets` shards from the start (a layout effective since 0, as if set long ago). */
async function spreadOver(team: string, buckets: number): Promise<void> {
  const zero = bucketStub(team, 0);
  await zero.changeBuckets(buckets, 1);
  await runInDurableObject(zero, (_, state) => {
    state.storage.sql.exec("UPDATE bucket_layouts SET effective_at = 1 WHERE buckets = ?", buckets);
  });
}

describe("Slack-aware pacing", () => {
  for (const buckets of [1, 4]) {
    it(`40 mentions in one channel within a second, against a Web API allowing 1/s per channel with bursts of 3 (${buckets} shard${buckets > 1 ? "s" : ""}): all 40 replies land, in order, with at most 2 answered 429`, async () => {
      slack().limitPostsPerChannel({ perSecond: 1, burst: 3 });
      const team = newWorkspace();
      if (buckets > 1) await spreadOver(team, buckets);
      const channel = `CPACE${team.slice(-6)}`;
      const sent: string[] = [];
      const started = Date.now();
      for (let i = 0; i < 40; i++) {
        const event = appMention({ channel });
        const delivery = await signedEvent(eventCallback(event, { teamId: team }), signedBy());
        expect((await deliver(delivery)).status).toBe(200);
        sent.push(String(event.ts));
      }
      const sendingMs = Date.now() - started;
      if (buckets > 1) {
        // The mentions were recorded by several shards of the workspace, all paced as one channel.
        const held = await receiptsByBucket(team, buckets);
        expect(held.filter((n) => n > 0).length).toBeGreaterThan(1);
      }

      const posts = () =>
        slack()
          .callsTo("chat.postMessage")
          .filter((c) => c.body.channel === channel);
      const landed = () => posts().filter((c) => c.outcome === "ok");
      const deadline = Date.now() + 60_000;
      while (landed().length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));

      expect(landed().map((c) => c.body.thread_ts)).toEqual(sent);
      expect(posts().length - landed().length).toBeLessThanOrEqual(2); // 429s answered
      // Never faster than Slack allows: after the burst of 3, one a second on average.
      const times = landed().map((c) => c.at);
      expect(times[39]! - times[0]!).toBeGreaterThanOrEqual((40 - 3) * 1000 - 50);
      console.log(`pacing (${buckets} shards): 40 mentions sent in ${sendingMs} ms, replies over ${times[39]! - times[0]!} ms`);
    }, 90_000);
  }
});

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
      bucket: "chat.postMessage:C1",
      pace: { perSecond: 0.95, burst: 3 }, // a little under Slack's 1/s, for network jitter
    });
    // chat.update is Tier 3 (50+ per minute), not the per-channel limit.
    expect(paceOf("chat.update", { channel: "C1" })).toEqual({ bucket: "chat.update", pace: { perSecond: 50 / 60, burst: 10 } });
    expect(paceOf("views.open", {})?.pace.perSecond).toBeCloseTo(100 / 60);
    expect(paceOf("some.unknownMethod", {})).toBeNull();
  });
});
