import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator, waitUntilSettled } from "../../src/testing";
import { assistantThreadMessage, assistantThreadStarted, dmThread } from "../support/assistantPayloads";

// Slack's assistant template, ported (assistantTemplate.ts), served by the coordinator in workerd.
let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(async () => {
  // Every run of this test is done, its calls in this test's fake.
  await waitUntilSettled({ shard: env.SHARD, workspace: team, timeoutMs: 20_000 });
  vi.restoreAllMocks();
}, 25_000);

const send = async (request: Promise<Request>) => (await exports.default.fetch(await request)).status;
const feedbackIn = (blocks: unknown) => JSON.stringify(blocks ?? []).includes('"feedback_buttons"');

describe("the ported assistant template", () => {
  it("greets a new assistant thread and offers its two prompts", async () => {
    const thread = dmThread();
    expect(await send(simulate.event("assistant_thread_started", assistantThreadStarted(thread)))).toBe(200);
    const prompts = await slack.waitFor("assistant.threads.setSuggestedPrompts");
    expect(prompts.body).toMatchObject({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      title: "Start with this suggested prompt:",
    });
    expect((prompts.body.prompts as unknown[]).length).toBe(2);
    expect(slack.messagesIn(thread.channel, thread.threadTs).map((m) => m.text)).toEqual(["Hi, how can I help?"]);
  });

  it("rolls the dice: a task in progress then complete, the model's text, and the feedback buttons, in one streamed reply", async () => {
    const thread = dmThread();
    const ask = "Roll two 12-sided dice and three 6-sided dice for a pseudo-random score.";
    expect(await send(simulate.event("message", assistantThreadMessage(thread, ask)))).toBe(200);
    await slack.waitFor("chat.stopStream");
    expect((await slack.waitFor("assistant.threads.setStatus")).body).toMatchObject({ status: "thinking..." });
    expect(slack.callsTo("chat.startStream")[0]?.body).toMatchObject({
      task_display_mode: "timeline",
      thread_ts: thread.threadTs,
    });
    const [reply, ...more] = slack.messagesIn(thread.channel, thread.threadTs);
    expect(more).toEqual([]);
    expect(reply?.text).toMatch(/^Let me roll those for you\. Your dice total \d+\.$/);
    expect(reply?.streaming).toBe(false);
    expect(reply?.chunks.map((chunk) => chunk.type === "task_update" && `${chunk.id} ${chunk.status}`)).toEqual([
      "call_dice_1 in_progress",
      "call_dice_1 complete",
    ]);
    expect(feedbackIn(reply?.blocks)).toBe(true);
  });

  it("wonders deep thoughts as a plan: its tasks, plan titles and closing text", { timeout: 30_000 }, async () => {
    const thread = dmThread();
    expect(await send(simulate.event("message", assistantThreadMessage(thread, "Wonder a few deep thoughts.")))).toBe(200);
    await slack.waitFor("chat.stopStream", () => true, 20_000);
    expect(slack.callsTo("chat.startStream")[0]?.body).toMatchObject({ task_display_mode: "plan" });
    const [reply] = slack.messagesIn(thread.channel, thread.threadTs);
    expect(reply?.text).toBe(
      "Hello.\nI have received the task. This task appears manageable.\nThat is good.The crowd appears to be astounded and applauds :popcorn:",
    );
    expect(reply?.chunks.filter((chunk) => chunk.type === "plan_update").map((chunk) => chunk.title)).toEqual([
      "Adding the final pieces...",
      "Decided to put on a show",
    ]);
    expect(feedbackIn(reply?.blocks)).toBe(true);
  });

  it("answers a mention in its thread through client.chatStream, then thanks the feedback click", async () => {
    const ts = "1700000000.000300";
    expect(await send(simulate.appMention({ channel: "C0PORT", user: "U0ASKER", text: "<@U0000BOT> hello", ts }))).toBe(200);
    await slack.waitFor("chat.stopStream");
    expect((await slack.waitFor("assistant.threads.setStatus")).body).toMatchObject({ channel_id: "C0PORT", thread_ts: ts });
    expect(slack.callsTo("chat.startStream")[0]?.body).toMatchObject({
      channel: "C0PORT",
      thread_ts: ts,
      recipient_user_id: "U0ASKER",
      recipient_team_id: team,
    });
    const [reply] = slack.messagesIn("C0PORT", ts);
    expect(reply?.text).toBe("You said: <@U0000BOT> hello");
    expect(feedbackIn(reply?.blocks)).toBe(true);

    const click = { channel: { id: "C0PORT", name: "port" }, message: { type: "message", ts: reply!.ts, thread_ts: ts } };
    const actions = [
      { type: "feedback_buttons", action_id: "feedback", block_id: "b1", value: "good-feedback", action_ts: "1700000001.0" },
    ];
    expect(await send(simulate.blockActions("feedback", "good-feedback", { ...click, actions }))).toBe(200);
    expect((await slack.waitFor("chat.postEphemeral")).body).toMatchObject({
      channel: "C0PORT",
      thread_ts: reply!.ts,
      text: "We're glad you found this useful.",
    });
  });
});
