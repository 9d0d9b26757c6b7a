import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppMentionEvent } from "@slack/types";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import { controlClock } from "../support/clock";
import { mentionIn } from "../support/inboundOf";
import { recordPlanned, shardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const CHANNEL = "C0FIRST";
const THREAD = "1700000000.000200";

/** Runs `handler` for one app_mention in a fresh shard, through its real delivery loop. */
async function answered(handler: (args: RunArgs<EventArgs<AppMentionEvent>>) => Promise<void>) {
  controlClock();
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const app = new App().event("app_mention", handler);
  const stub = env.SHARD.get(env.SHARD.idFromName(`first-text-${team}`));
  await runInDurableObject(stub, async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false" } });
    recordPlanned(outbox, app, mentionIn(team, CHANNEL, THREAD, "EvFirst", "count"));
    await loop.sweep(Date.now());
  });
  return slack().messagesIn(CHANNEL, THREAD);
}

describe("sayStream's first text", () => {
  it("reaches Slack before the handler appends more; later text is sent in buffered flushes", async () => {
    let open!: () => void;
    const latch = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The latch opens once the fake has shown the first token (or, failing that, after 3 s, so the run ends).
    const seen = slack()
      .waitFor("chat.startStream", (call) => call.outcome === "ok" && call.body.markdown_text === "1 ", 3_000)
      .then(
        () => true,
        () => false,
      )
      .finally(() => open());
    const rest = Array.from({ length: 300 }, (_, i) => `${i + 2} `);
    const messages = await answered(async ({ sayStream }) => {
      const streamer = sayStream();
      await streamer.append({ markdown_text: "1 " });
      await latch;
      for (const token of rest) await streamer.append({ markdown_text: token });
      await streamer.stop();
    });
    expect(await seen).toBe(true);
    expect(messages.map((m) => ({ text: m.text, streaming: m.streaming }))).toEqual([
      { text: `1 ${rest.join("")}`, streaming: false },
    ]);
    // Only the first text skips the buffer: not one call per token after it.
    expect(slack().callsTo("chat.appendStream").length).toBeLessThan(rest.join("").length / 200);
  });
});
