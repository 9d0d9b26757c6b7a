import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import { CHANNEL, problemsOf, runAnswer, type Scenario, THREAD } from "../support/faultMatrix";
import { FAKE_SLACK_ORIGIN } from "../support/testBindings";

// A lost start is looked for in the thread (app/streams/recover/lostStart.ts); another run of the app answering
// there meanwhile, as the same bot, must not be taken for it and written over — nor another app's
// message showing the same words (slack/ownMessages.ts).

const TOKENS = Array.from({ length: 60 }, (_, i) => `w${i} `);
const OTHER = "Another run's answer, to another user's mention in this thread";

const streamed: Scenario = {
  name: "streamed",
  app: new App().event("app_mention", async ({ sayStream }) => {
    const streamer = sayStream();
    for (const token of TOKENS) await streamer.append({ markdown_text: token });
    await streamer.stop({ blocks: [{ type: "section", text: { type: "mrkdwn", text: "mark_done" } }] as never });
  }),
  text: TOKENS.join(""),
  blocksMark: "mark_done",
  makes: ["chat.startStream"],
};

/** Another run of the app answers in the same thread (as the same bot), posted while this run's start was lost. */
async function anotherRunPosts(slack: FakeSlack): Promise<void> {
  const body = JSON.stringify({ channel: CHANNEL, thread_ts: THREAD, text: OTHER });
  await slack.fetch(
    new Request(`${FAKE_SLACK_ORIGIN}/api/chat.postMessage`, {
      method: "POST",
      headers: { authorization: "Bearer xoxb-test-token", "content-type": "application/json" },
      body,
    }),
  );
}

describe("a lost start is not taken for another run's message in the thread", () => {
  it("a start that never reached Slack, another run's answer posted meanwhile: that answer stays as it was", async () => {
    const clean = await runAnswer(streamed);
    const at = clean.calls.indexOf("chat.startStream");
    const run = await runAnswer(streamed, { at, fault: "unsent", meanwhile: anotherRunPosts });
    const messages = run.slack.messagesIn(run.channel, run.thread);
    const other = messages.filter((m) => m.text === OTHER);
    expect(other).toHaveLength(1);
    expect(run.slack.callsTo("chat.update").filter((call) => call.body.ts === other[0]!.ts)).toEqual([]);
    expect(run.slack.callsTo("chat.appendStream").filter((call) => call.body.ts === other[0]!.ts)).toEqual([]);
    // This run's own answer, read without the other run's message: exact, once, nothing left streaming.
    const ours = messages.filter((m) => m.text !== OTHER);
    const slack = Object.assign(Object.create(run.slack) as typeof run.slack, { messagesIn: () => ours });
    expect(problemsOf(streamed, { ...run, slack })).toEqual([]);
  });
});

/** Another app in the channel: its bot, its app, its bot user. */
const OTHER_APP = { bot_id: "B0000OTHER", app_id: "A0000OTHER", user: "U0000OTHER" };

/** Another app posts, in the thread, the words of the start Slack just applied (its answer lost). */
async function anotherAppCopiesTheStart(slack: FakeSlack): Promise<void> {
  const [start] = slack.callsTo("chat.startStream");
  slack.postAs(OTHER_APP, CHANNEL, { thread_ts: THREAD, text: String(start!.body.markdown_text) });
}

describe("a lost start is this app's own message", () => {
  it("another app's message with the start's words beside it: the app's own is continued, the copy left as it was, and told", async () => {
    const warn = vi.spyOn(console, "warn");
    const clean = await runAnswer(streamed);
    const at = clean.calls.indexOf("chat.startStream");
    const run = await runAnswer(streamed, { at, fault: "lost", meanwhile: anotherAppCopiesTheStart });
    const messages = run.slack.messagesIn(run.channel, run.thread);
    const [copy, ...more] = messages.filter((m) => m.bot_id === OTHER_APP.bot_id);
    expect(more).toEqual([]);
    expect(run.slack.calls.filter((call) => call.body.ts === copy!.ts)).toEqual([]);
    const ours = messages.filter((m) => m.bot_id !== OTHER_APP.bot_id);
    const slack = Object.assign(Object.create(run.slack) as typeof run.slack, { messagesIn: () => ours });
    expect(problemsOf(streamed, { ...run, slack })).toEqual([]);
    // Which message was not taken, and who posted it: told once for the channel.
    const told = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("not this app's bot"));
    expect(told.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ channel: CHANNEL, ts: copy!.ts, ...OTHER_APP }),
    ]);
  });
});
