import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { controlClock } from "../support/clock";
import { answerAtOnce, answeringAtModelPace, withFakeTimers } from "../support/concurrentAnswers";
import { mentionIn } from "../support/inboundOf";
import { recordPlanned, shardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const THREAD = "1700000000.000300";
const STREAMS = 24;

/** An app_mention in a thread of a channel of its own (chat.postMessage is paced per channel). */
const mention = (team: string, n: number) => mentionIn(team, `C0EX${n}`, THREAD, `Ev${n}`);

describe("sayStream when stream starts are exhausted", () => {
  it(`${STREAMS} concurrent streams in one workspace: each answer's first text within seconds, posted and updated in place past Tier 2, exact, no 429`, async () => {
    await withFakeTimers(async () => {
      slack().enforceTiers();
      const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
      const text = Array.from({ length: 400 }, (_, i) => `${i + 1} `);
      const feedback = [{ type: "context", elements: [{ type: "mrkdwn", text: "Was this helpful?" }] }];
      const app = answeringAtModelPace(text, feedback);
      const startedAt = Date.now();
      await answerAtOnce(
        team,
        app,
        Array.from({ length: STREAMS }, (_, n) => mention(team, n)),
      );
      expect(slack().rateLimited()).toEqual([]);
      for (let n = 0; n < STREAMS; n++) {
        const channel = `C0EX${n}`;
        const messages = slack().messagesIn(channel, THREAD);
        expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
        expect(messages.every((m) => !m.streaming)).toBe(true);
        expect(messages.at(-1)?.blocks).toEqual(expect.arrayContaining(feedback));
        const first = slack().calls.find(
          (call) =>
            call.outcome === "ok" &&
            call.body.channel === channel &&
            /^chat\.(startStream|postMessage)$/.test(call.method) &&
            String(call.body.markdown_text ?? "") !== "",
        );
        // The first text reached Slack within seconds of the request, not after its turn in Tier 2.
        expect(first!.at - startedAt).toBeLessThan(6_000);
      }
      // Past Tier 2's starts, answers were posted instead of waiting their turn.
      expect(slack().callsTo("chat.postMessage").length).toBeGreaterThan(0);
    });
  }, 120_000);

  /** One mention answered by `tokens` (crashing after `crashAt` of them on the first attempt), its start refused 429 for a minute. */
  async function postedAnswer(tokens: (attempt: number) => string[], crashAt: number) {
    const clock = controlClock();
    slack().fail({ method: "chat.startStream" }, { status: 429, retryAfter: 60 }, 10);
    const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    const app = new App().event("app_mention", async ({ sayStream, attempt }) => {
      const streamer = sayStream();
      for (const [i, token] of tokens(attempt).entries()) {
        if (attempt === 1 && i === crashAt) throw new Error("crashed mid-answer");
        await streamer.append({ markdown_text: token });
      }
      await streamer.stop();
    });
    const stub = env.SHARD.get(env.SHARD.idFromName(`posted-${team}`));
    await runInDurableObject(stub, async (_, state) => {
      const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false" } });
      recordPlanned(outbox, app, mention(team, 0));
      for (let i = 0; i < 3; i++) {
        await loop.sweep(Date.now());
        clock.advance(60_000);
      }
    });
    return slack().messagesIn("C0EX0", THREAD);
  }

  const counted = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `${i + from} `);

  it("a retried run continues its posted answer in place: one message, exact text", async () => {
    const text = counted(300);
    const messages = await postedAnswer(() => text, 150);
    expect(messages.map((m) => ({ text: m.text, streaming: m.streaming }))).toEqual([{ text: text.join(""), streaming: false }]);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("a retry with other text replaces the posted answer from where it differs", async () => {
    const messages = await postedAnswer(
      (attempt) => (attempt === 1 ? counted(300) : [...counted(100), ...counted(50, 900)]),
      150,
    );
    expect(messages.map((m) => m.text).join("")).toBe([...counted(100), ...counted(50, 900)].join(""));
    expect(messages.every((m) => !m.streaming)).toBe(true);
  });

  it("an update whose outcome is unknown is neither duplicated nor dropped", async () => {
    slack().fail({ method: "chat.update" }, { reset: true }, 1);
    const text = counted(300);
    const messages = await postedAnswer(() => text, 1_000);
    expect(messages.map((m) => ({ text: m.text, streaming: m.streaming }))).toEqual([{ text: text.join(""), streaming: false }]);
  });
});
