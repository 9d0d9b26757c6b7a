import { describe, expect, it } from "vitest";
import { FakeSlack } from "../../src/testing";

// The kit's fake can hold a tier to Slack's burst as well as to its minute: a bucket of `burst`
// calls refilled at the tier's rate, on top of the strict count in any 60 s.

describe("FakeSlack tiers with a burst", () => {
  it("Tier 2 at 20/min with a burst of 5: five at once, the sixth 429 with Retry-After 3, one more every 3 s, never 21 in a minute", async () => {
    const clock = { now: 1_700_000_000_000 };
    const slack = new FakeSlack({ now: () => clock.now }).enforceTiers({ "chat.startStream": { perMinute: 20, burst: 5 } });
    const start = async () => {
      const response = await slack.fetch(`${slack.apiUrl}chat.startStream`, {
        method: "POST",
        headers: { authorization: "Bearer xoxb-T1", "content-type": "application/json" },
        body: JSON.stringify({ channel: "D0BURST", thread_ts: "1700000000.000100" }),
      });
      return { status: response.status, retryAfter: response.headers.get("retry-after") };
    };
    for (let i = 0; i < 5; i++) expect((await start()).status).toBe(200);
    expect(await start()).toEqual({ status: 429, retryAfter: "3" });
    let accepted = 5;
    for (let i = 0; i < 20; i++) {
      clock.now += 3_000;
      if ((await start()).status === 200) accepted++;
    }
    // 5 at once and 15 more by 45 s fill the minute (the bucket alone would let one in every 3 s); at 60 s the burst has left it.
    expect(accepted).toBe(5 + 15 + 1);
    const ok = slack.calls.filter((call) => call.outcome === "ok").map((call) => call.at);
    for (const at of ok) expect(ok.filter((other) => other > at - 60_000 && other <= at).length).toBeLessThanOrEqual(20);
    expect(slack.rateLimited().length).toBeGreaterThan(1);
  });
});
