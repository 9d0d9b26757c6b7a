import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

const TOKENS = Array.from({ length: 120 }, (_, i) => `w${i} `);
const BLOCKS = [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }];

/** The listener's runs. */
let runs = 0;

const app = new App().event("app_mention", async ({ sayStream }) => {
  runs++;
  const streamer = sayStream();
  for (const token of TOKENS) await streamer.append({ markdown_text: token });
  await streamer.stop({ blocks: BLOCKS as never });
});

const scenario: Scenario = {
  name: "lookup in turn",
  app,
  text: TOKENS.join(""),
  blocksMark: "mark_done",
  vars: { STREAM_MAX_CHARS: "250" },
  makes: ["chat.startStream"],
  // Slack asks the lost start's first lookup to wait a second (Tier 3), as under chaos.
  prepare: (fake) => fake.fail({ method: "conversations.replies" }, { status: 429, retryAfter: 1 }, 1),
};

describe("a lost start's lookup answered 429", () => {
  it("waits for its turn inside the attempt, as the reply's other calls do: the retry after the attempt died finds the start", async () => {
    runs = 0;
    const run = await runAnswer(scenario, { at: 0, fault: "died" });
    expect(problemsOf(scenario, run)).toEqual([]);
    // The attempt that died, and one retry: the 429 did not end it (without the wait: a third run).
    expect(runs).toBe(2);
    expect(run.calls.slice(0, 4)).toEqual(["chat.startStream", "conversations.replies", "conversations.replies", "auth.test"]);
  });
});
