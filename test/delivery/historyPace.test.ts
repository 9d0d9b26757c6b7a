import { describe, expect, it } from "vitest";
import { FakeSlack } from "../../src/testing/fakeSlack";
import { FAKE_SLACK_ORIGIN } from "../support/testBindings";
import { answerMentions, replies, replying } from "../support/uncertainRun";

/**
 * The lookups of uncertain posts are paced at what the app's kind allows (issue 40, point 3):
 * the test Worker runs in single-workspace mode (SLACK_BOT_TOKEN, no OAuth), a customer's own
 * app, which Slack gives Tier 3 for conversations.history / replies (test/unit/historyReads.test.ts
 * has every mode's defaults).
 */

const THREAD = "1700000000.000500";

describe("the history pace follows the app's kind", () => {
  it("single-workspace mode reads at Tier 3: a reply refused 500 twice is looked for twice at once, and goes out in seconds", async () => {
    const slack = new FakeSlack(FAKE_SLACK_ORIGIN).fail({ method: "chat.postMessage" }, { status: 500 }, 2);
    const run = await answerMentions(replying(), [THREAD], {
      slack,
      settings: { SLACK_PACING: "true" },
      sweeps: 90,
      stepMs: 1_000,
    });
    // Each retry looks for the post its attempt before may have made, then posts it.
    expect(slack.callsTo("conversations.replies")).toHaveLength(2);
    const posts = slack.callsTo("chat.postMessage");
    expect(posts.map((call) => call.applied)).toEqual([false, false, true]);
    expect(replies(slack, THREAD)).toEqual([`reply to ${THREAD}`]);
    // Two backoffs (2 s, then 4 s, with jitter) — not the minute a distributed app's second lookup waits.
    expect(posts[2]!.at - run.recordedAt).toBeLessThan(15_000);
  });
});
