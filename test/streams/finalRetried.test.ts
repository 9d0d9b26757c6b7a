import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { RECOVERIES_PER_ATTEMPT } from "../../src/app/streams/replyMessages";
import { problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

const TOKENS = Array.from({ length: 200 }, (_, i) => `w${i} `);
const BLOCKS = [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }];

/** What the retry answers: its first attempt's text unless told (set once the clean run shows the messages). */
let retried: string | undefined;

const app = new App().event("app_mention", async ({ sayStream, attempt }) => {
  const streamer = sayStream();
  if (attempt === 1 || retried === undefined) for (const token of TOKENS) await streamer.append({ markdown_text: token });
  else await streamer.append({ markdown_text: retried });
  await streamer.stop({ blocks: BLOCKS as never });
});

const scenario: Scenario = {
  name: "final lost, shorter retry",
  app,
  text: TOKENS.join(""),
  blocksMark: "mark_done",
  vars: { STREAM_MAX_CHARS: "250" },
  makes: ["chat.stopStream"],
};

describe("a final stop whose answer was lost, retried with a shorter answer", () => {
  it("ending where the final stop's message began: the answer shows once, its blocks once, the run delivered", async () => {
    const clean = await runAnswer(scenario);
    const shown = clean.slack.messagesIn(clean.channel, clean.thread).map((m) => m.text);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    // The retry's answer is exactly the messages before the last one (the final stop's).
    retried = shown.slice(0, -1).join("");
    const final = clean.calls.lastIndexOf("chat.stopStream");
    // And each call recovering from it in the same attempt (app/streams/replyMessages.ts) refused
    // until its recoveries are spent: the attempt ends, the run is retried.
    const recoveries = Array.from({ length: RECOVERIES_PER_ATTEMPT }, (_, i) => ({
      at: final + 1 + i,
      fault: "refused" as const,
    }));
    const run = await runAnswer({ ...scenario, text: retried }, { at: final, fault: "lost" }, ...recoveries);
    expect(run.calls.slice(final, final + 1 + RECOVERIES_PER_ATTEMPT)).toEqual(
      Array.from({ length: 1 + RECOVERIES_PER_ATTEMPT }, () => "chat.stopStream"),
    );
    retried = undefined;
    expect(problemsOf({ ...scenario, text: shown.slice(0, -1).join("") }, run)).toEqual([]);
  });
});
