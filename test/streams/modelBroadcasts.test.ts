import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppMentionEvent } from "@slack/types";
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { finish, mockModel, textParts } from "../support/mockModel";
import { recordPlanned, shardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// A model's `<!channel>` and the like reach Slack as markdown_text: `pipe()` shows them as words
// (src/app/streams/pipe/broadcastMentions.ts) unless the app opts in with `{ broadcasts: true }`.

const slack = useFakeSlack();
const CHANNEL = "C0BROAD";
const THREAD = "1700000000.000900";

/** The model's text, delta by delta, with `<!channel>` split across two deltas as a model streams it. */
const DELTAS = ["Heads up ", "<!chan", "nel>, <!here|here>, <!everyone> and <!subteam^S0ONCALL|@oncall>", ": a <b>, 1 < 2."];
const RAW = DELTAS.join("");

/** One app_mention answered by piping the mock model with `options`, through a shard's real delivery loop. */
async function answeredWith(options: { broadcasts?: boolean }) {
  const clock = controlClock();
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  let piped = "";
  const app = new App().event("app_mention", async ({ sayStream }: RunArgs<EventArgs<AppMentionEvent>>) => {
    const stream = sayStream();
    piped = (await stream.pipe(streamText({ model: mockModel([...textParts("t", ...DELTAS), finish()]), prompt: "hi" }), options))
      .text;
    await stream.stop();
  });
  await runInDurableObject(env.SHARD.get(env.SHARD.idFromName(`broadcast-${team}`)), async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false" } });
    recordPlanned(outbox, app, mentionIn(team, CHANNEL, THREAD, "EvBroadcast"));
    for (let i = 0; i < 3; i++) {
      await loop.sweep(Date.now());
      clock.advance(60_000);
    }
  });
  const sent = slack()
    .calls.filter((call) => call.method.startsWith("chat."))
    .map((call) => String(call.body.markdown_text ?? ""))
    .join("");
  return { piped, sent, messages: slack().messagesIn(CHANNEL, THREAD) };
}

describe("pipe(): broadcasts in the model's text", () => {
  it("are shown as words, notifying no one, even when split across deltas", async () => {
    const { piped, sent, messages } = await answeredWith({});
    expect(messages).toMatchObject([{ text: "Heads up @channel, @here, @everyone and @oncall: a <b>, 1 < 2." }]);
    expect(sent).not.toContain("<!");
    // What pipe() resolves to is the model's own text.
    expect(piped).toBe(RAW);
  });

  it("notify as the model wrote them when the app opts in with { broadcasts: true }", async () => {
    const { messages } = await answeredWith({ broadcasts: true });
    expect(messages).toMatchObject([{ text: RAW }]);
  });
});
