import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { withPostId } from "../../src/slack/postIds";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import { LEASE_MS } from "../support/testBindings";
import { answerMentions, CHANNEL } from "../support/uncertainRun";

/**
 * The uncertain rows of one conversation are resolved by one lookup (issue 40, point 3): rows an
 * immediate attempt held when its isolate died are taken over together, and the pages one
 * conversations.history reads serve them all — at a distributed app's 1 read a minute, six rows
 * of one channel no longer go out over six minutes.
 */

/** A mention answered by one top-level post in its channel (looked for with conversations.history). */
const answeringInChannel = new App().event("app_mention", async ({ event, say }) => {
  await say(`answer to ${String(event!.ts)}`);
});

const MENTIONS = Array.from({ length: 6 }, (_, i) => `1700000000.00${600 + i}`);

/** The dead attempt's posts of `keys`' rows at `at` (0, 2, 4): Slack applied them, nobody learned it. */
async function postedBeforeTheCrash(slack: FakeSlack, keys: string[], at: number[]) {
  for (const i of at) {
    const body = withPostId({ channel: CHANNEL, text: `answer to ${MENTIONS[i]}` }, `${keys[i]}##1`);
    await slack.fetch(`${slack.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { authorization: "Bearer xoxb-test-token", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }
}

describe("the uncertain rows of one conversation share one lookup", () => {
  it("six rows of one channel taken over after a crash: one conversations.history serves them all, each answer shown once, within seconds", async () => {
    const run = await answerMentions(answeringInChannel, MENTIONS, {
      settings: { SLACK_PACING: "true", SLACK_HISTORY_PER_MINUTE: "1" },
      crashed: true,
      beforeTheCrash: (slack, keys) => postedBeforeTheCrash(slack, keys, [0, 2, 4]),
      sweeps: 80,
      stepMs: 5_000,
    });
    const { slack } = run;
    expect(slack.callsTo("conversations.history")).toHaveLength(1);
    const shown = slack.messagesIn(CHANNEL).map((m) => m.text);
    expect(shown.toSorted()).toEqual(MENTIONS.map((ts) => `answer to ${ts}`));
    // Three were found, three posted: every answer out within the first sweeps after the lease ran out.
    const posts = slack.callsTo("chat.postMessage");
    expect(posts).toHaveLength(6);
    const takenOverAt = run.recordedAt + LEASE_MS;
    expect(Math.max(...posts.map((call) => call.at)) - takenOverAt).toBeLessThan(10_000);
    expect(await run.rows()).toEqual([]);
  });
});
