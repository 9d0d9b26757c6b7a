import { describe, expect, it } from "vitest";
import { SLACK_TIERS } from "../../src/testing/fakeTiers";
import { answerAtOnce, answeringAtModelPace, withFakeTimers } from "../support/concurrentAnswers";
import { mentionIn } from "../support/inboundOf";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const THREAD = "1700000000.000400";
const ANSWERS = 10;
/** Tier 2 as Slack words it ("20+ per minute … occasional bursts"), made strict: 20 in any 60 s, 5 at once. */
const TIER_2_WITH_BURSTS = { perMinute: 20, burst: 5 };

/** An app_mention in a thread of a channel of its own (chat.postMessage is paced per channel). */
const mention = (team: string, n: number) => mentionIn(team, `C0BU${n}`, THREAD, `EvBurst${n}`);

/** `ANSWERS` mentions answered at once by streams of `text`; checks every answer is exact and done; returns the channels that streamed. */
async function answerTogether(text: string[], vars: Record<string, string> = {}) {
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const app = answeringAtModelPace(text);
  await answerAtOnce(
    team,
    app,
    Array.from({ length: ANSWERS }, (_, n) => mention(team, n)),
    vars,
  );
  const streamed: string[] = [];
  for (let n = 0; n < ANSWERS; n++) {
    const channel = `C0BU${n}`;
    const messages = slack().messagesIn(channel, THREAD);
    expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
    expect(messages.every((m) => !m.streaming)).toBe(true);
    const calls = slack().calls.filter((call) => call.body.channel === channel && call.outcome === "ok");
    if (calls.some((call) => call.method === "chat.startStream")) {
      // A streamed answer, not one posted and updated in place.
      expect(calls.filter((call) => call.method === "chat.postMessage")).toEqual([]);
      streamed.push(channel);
    }
  }
  return streamed;
}

const counted = Array.from({ length: 200 }, (_, i) => `${i + 1} `);

describe("stream starts use Slack's burst", () => {
  it(`${ANSWERS} concurrent answers in one workspace, against Tier 2 at 20/min with a burst of 5: at least 5 stream, all exact, at most 2 calls answered 429`, async () => {
    await withFakeTimers(async () => {
      slack().enforceTiers({
        ...SLACK_TIERS,
        "chat.startStream": TIER_2_WITH_BURSTS,
        "chat.stopStream": TIER_2_WITH_BURSTS,
      });
      const startedAt = Date.now();
      const streamed = await answerTogether(counted);
      expect(streamed.length).toBeGreaterThanOrEqual(5);
      // The burst went at once: five starts within the first second, not 3 s apart.
      const starts = slack()
        .callsTo("chat.startStream")
        .filter((call) => call.outcome === "ok");
      expect(starts.filter((call) => call.at - startedAt < 1_000).length).toBeGreaterThanOrEqual(5);
      expect(slack().rateLimited().length).toBeLessThanOrEqual(2);
    });
  }, 120_000);

  it("SLACK_STREAM_BURST=1 spreads the starts evenly: past the second (3 s on), answers are posted", async () => {
    await withFakeTimers(async () => {
      slack().enforceTiers();
      const streamed = await answerTogether(counted, { SLACK_STREAM_BURST: "1" });
      expect(streamed).toHaveLength(2);
      expect(slack().rateLimited()).toEqual([]);
    });
  }, 120_000);
});
