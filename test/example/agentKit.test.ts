import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// The public test kit only (`slack-durable-coordinator/testing` for a user): docs/guides/ai-agent.md shows this file.
import { FakeSlack, SlackSimulator, waitUntilSettled } from "../../src/testing";

let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  // The fake streams like Slack: it keeps each message's text, blocks and stream state.
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8)}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(() => vi.restoreAllMocks());

describe("the demo agent, tested with the public kit", () => {
  it("streams its answer into the thread, then shows feedback buttons", async () => {
    const thread_ts = "1700000000.000100";
    const mention = await simulate.appMention({ channel: "C0AGENT", thread_ts, text: "<@U0000BOT> count to 20" });
    expect((await exports.default.fetch(mention)).status).toBe(200);
    // The turn's last call: the session back to active (nothing of the run is left to reach Slack).
    await slack.waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    // The message as Slack shows it: everything the stream appended, and the blocks of its stop.
    const [answer] = slack.messagesIn("C0AGENT", thread_ts);
    expect(answer).toMatchObject({ text: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", streaming: false });
    // The model's tool call, shown as a task: in progress, then complete.
    expect(answer?.chunks).toMatchObject([
      { type: "task_update", title: "Counting to 20", status: "in_progress" },
      { type: "task_update", title: "Counting to 20", status: "complete" },
    ]);
    expect(answer?.blocks).toMatchObject([{ type: "context_actions", elements: [{ type: "feedback_buttons" }] }]);
  });

  it("stops when the user presses the stop button", async () => {
    const thread_ts = "1700000000.000200";
    const mention = await simulate.appMention({ channel: "C0STOP", thread_ts, text: "<@U0000BOT> count to 500" });
    expect((await exports.default.fetch(mention)).status).toBe(200);
    // The stream opens with the count's task ("Counting to 500"); the numbers follow.
    await slack.waitFor("chat.appendStream", (call) => typeof call.body.markdown_text === "string");
    const [streaming] = slack.messagesIn("C0STOP", thread_ts);
    const stop = await simulate.event("agent_session_stopped", {
      channel: "C0STOP",
      thread_ts,
      user: "U0000USER",
      streaming_message_ts: [streaming!.ts],
    });
    expect((await exports.default.fetch(stop)).status).toBe(200);
    await slack.waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    // Nothing is left to reach Slack: the stop's calls, and the stopped run's close of its message
    // (found stopped already: it keeps the text it showed). The run itself is stopped by the stop: an outcome, not parked.
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toEqual({ pending: 0, parked: 0, stopped: 1 });
    // Stopped where the stop met it, short of 500, and never streaming again.
    const stopped = slack.message("C0STOP", streaming!.ts);
    expect(stopped?.streaming).toBe(false);
    expect(stopped?.text).toMatch(/^1\b/);
    expect(stopped?.text.endsWith(" 500")).toBe(false);
  });
});
