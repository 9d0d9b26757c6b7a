import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// The public test kit only (`slack-durable-coordinator/testing` for a user): docs/guides/testing.md shows this file.
import { FakeSlack, runShardAlarm, SlackSimulator, TestClock } from "../../src/testing";

let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  // The fake answers wherever the Worker's SLACK_API_URL points; every outbound fetch goes to it.
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(() => vi.restoreAllMocks());

describe("the demo app, tested with the public kit", () => {
  it("answers a mention: a placeholder in its thread, then the answer in place", async () => {
    const request = await simulate.appMention({ channel: "C0KIT", text: "<@U0000BOT> what is up" });
    const response = await exports.default.fetch(request);
    expect(response.status).toBe(200);
    const update = await slack.waitFor("chat.update");
    const [placeholder] = slack.callsTo("chat.postMessage");
    expect(placeholder!.token).toBe("Bearer xoxb-test-token");
    expect(placeholder!.body).toMatchObject({ channel: "C0KIT", text: "Working on it…" });
    expect(update.body).toMatchObject({ channel: "C0KIT", text: 'You said 3 words: "what is up".' });
    // The fake stored the post and its update, as conversations.history would read them.
    expect(slack.messagesIn("C0KIT")).toMatchObject([{ text: 'You said 3 words: "what is up".' }]);
  });

  it("retries a failed update from the shard's alarm, without posting the placeholder twice", async () => {
    const clock = new TestClock();
    try {
      slack.failNext("chat.update", { status: 500 });
      expect((await exports.default.fetch(await simulate.appMention())).status).toBe(200);
      await slack.waitFor("chat.update"); // the failed attempt
      for (let round = 0; round < 4 && slack.callsTo("chat.update").length < 2; round++) {
        clock.advance(15_000);
        await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
      }
      expect(slack.callsTo("chat.update").map((call) => call.outcome)).toEqual([expect.stringContaining("500"), "ok"]);
      // The placeholder once (the demo is an agent: its user is also told, once, that the answer is delayed).
      expect(slack.callsTo("chat.postMessage").filter((call) => call.body.text === "Working on it…")).toHaveLength(1);
    } finally {
      clock.restore();
    }
  });

  it("/feedback opens the modal; its submission is thanked in a DM", async () => {
    const command = await exports.default.fetch(await simulate.command("/feedback"));
    expect(await command.json()).toEqual({ response_type: "ephemeral", text: "Opening the feedback form…" });
    const open = await slack.waitFor("views.open");
    expect(open.body).toMatchObject({ view: { callback_id: "feedback_modal" } });

    const submitted = await simulate.viewSubmission("feedback_modal", { feedback: { text: "more tests" } });
    expect((await exports.default.fetch(submitted)).status).toBe(200);
    const thanks = await slack.waitFor("chat.postMessage", (call) => call.body.channel === "U0000USER");
    expect(thanks.body.text).toBe("Thanks for your feedback: “more tests”");
  });

  it("/echo answers on the command's response_url", async () => {
    const request = await simulate.command("/echo", "hello there", { response_url: slack.responseUrl("echo") });
    expect((await exports.default.fetch(request)).status).toBe(200);
    const answer = await slack.waitFor("response_url");
    expect(answer.body).toEqual({ response_type: "ephemeral", text: "hello there" });
  });
});
