import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator, TestClock, waitUntilSettled } from "../../src/testing";
import { adminGet, shardStub, watchStub } from "../support/coordinator";
import { FakeAlertReceiver } from "../support/fakeBackend";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";
import { ALERT_RECEIVER_URL } from "../support/testBindings";
import { standInAnswer } from "./starterAgent/agent/model";

// Slack's starter agent (its openai-agents-sdk variant), ported (starterAgent.ts and starterAgent/),
// served by the coordinator in workerd on Slack's agent view (AGENT_SESSIONS=true), alerts on; the
// model is the AI SDK's mock, streamed through `sayStream().pipe`. Every listener keeps the sample's
// `try { … } catch (e) { say(":warning: Something went wrong! …") }`: none of these tests may see it.
let slack: FakeSlack;
let alerts: FakeAlertReceiver;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  alerts = new FakeAlertReceiver();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    return request.url === ALERT_RECEIVER_URL ? alerts.handle(request) : slack.fetch(request);
  });
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(async () => {
  await waitUntilSettled({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
  vi.restoreAllMocks();
}, 10_000);

const send = async (request: Promise<Request>) => (await exports.default.fetch(await request)).status;
const settled = () => waitUntilSettled({ shard: env.SHARD, workspace: team, runDurableObjectAlarm, timeoutMs: 10_000 });
const FEEDBACK = [{ type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "feedback" }] }];
/** Everything the user was shown with the sample's warning: posts, and any message's text. */
const warnings = () => slack.calls.filter((call) => JSON.stringify(call.body).includes(":warning:")).map((call) => call.method);
/** Each task card as the thread shows it, message by message: a card's last status in each message that has it. */
const lastTasks = (channel: string, thread: string) =>
  slack.messagesIn(channel, thread).flatMap((message) => {
    const last = new Map<string, string>();
    for (const chunk of message.chunks) if (chunk.type === "task_update") last.set(chunk.title, chunk.status);
    return last.size === 0 ? [] : [Object.fromEntries(last)];
  });

/**
 * A durable wait's question in a thread, as the user sees it: its message and its buttons' block_id
 * (until the kit's click finds it itself). The question comes below the answer's stream, opened before it.
 */
function questionIn(channel: string, thread: string) {
  const message = slack.messagesIn(channel, thread).find((shown) => JSON.stringify(shown.blocks ?? []).includes('"actions"'));
  const blocks = (message?.blocks ?? []) as Array<{ type: string; block_id?: string }>;
  const blockId = blocks.find((block) => block.type === "actions")?.block_id;
  if (!message || !blockId) throw new Error(`no question in ${channel} ${thread}`);
  return { channel, threadTs: thread, ts: message.ts, blockId };
}

/** The agent's one answer in a thread, once the turn is over: stopped with the feedback buttons. */
async function answerIn(channel: string, thread: string, except: string[] = []) {
  await slack.waitFor("chat.stopStream", (call) => call.body.channel === channel, 10_000);
  await settled();
  const answers = slack.messagesIn(channel, thread).filter((message) => !except.includes(message.ts));
  expect(answers).toHaveLength(1);
  expect(answers[0]).toMatchObject({ state: "stopped", streaming: false, blocks: FEEDBACK });
  return answers[0];
}

describe("the ported starter agent", { timeout: 30_000 }, () => {
  it("answers a DM and a mention: its status, the answer streamed, then the feedback buttons — nothing else", async () => {
    const dm = { channel: "D0DM", channel_type: "im", ts: "1700000001.000100", text: "hello, what can you do?" };
    expect(await send(simulate.message(dm))).toBe(200);
    const answer = await answerIn("D0DM", dm.ts);
    expect(answer.text).toBe(standInAnswer(dm.text, ["Reacted with :wave:"]));
    expect(lastTasks("D0DM", dm.ts)).toEqual([{ add_emoji_reaction: "complete" }]);
    expect(slack.callsTo("assistant.threads.setStatus")[0]?.body).toMatchObject({
      channel_id: "D0DM",
      thread_ts: dm.ts,
      status: "Thinking…",
    });
    expect(slack.callsTo("reactions.add").map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: "D0DM", timestamp: dm.ts, name: "wave" }),
    ]);
    // The stop button is shown while it answers: its session processing, then active again.
    expect(slack.callsTo("agents.sessions.setStatus").map((call) => call.body.status)).toEqual(["processing", "active"]);
    // The text streamed first, the feedback buttons with the stream's stop.
    const streamed = slack.calls.filter((call) => call.method.endsWith("Stream")).map((call) => call.method);
    expect(streamed.at(-1)).toBe("chat.stopStream");
    expect(streamed.filter((method) => method === "chat.appendStream").length).toBeGreaterThan(1);

    const mention = { channel: "C0HELP", user: "U0BOB", ts: "1700000002.000100", text: "<@U0000BOT> name my dog" };
    expect(await send(simulate.appMention(mention))).toBe(200);
    expect((await answerIn("C0HELP", mention.ts)).text).toBe(standInAnswer("name my dog", ["Reacted with :bulb:"]));
    expect(slack.callsTo("chat.startStream").at(-1)?.body).toMatchObject({ recipient_user_id: "U0BOB", recipient_team_id: team });
    expect(slack.callsTo("chat.postMessage")).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it("waits durably for the user's confirmation before its tool posts: the question, the run suspended, the click, the answer", async () => {
    const asked = 'please post "standup moves to 10:30" to <#C0TEAM|team>';
    const dm = { channel: "D0WAIT", channel_type: "im", ts: "1700000003.000100", text: asked };
    expect(await send(simulate.message(dm))).toBe(200);
    // Suspended: the session waits for its user (Slack shows it), the attempt over, nothing in its catch.
    await slack.waitFor("agents.sessions.setStatus", (call) => call.body.status === "suspended", 10_000);
    const question = questionIn("D0WAIT", dm.ts);
    expect(slack.callsTo("chat.postMessage").map((call) => call.body.text)).toEqual([
      "Send this to <#C0TEAM>?\n> standup moves to 10:30",
    ]);
    expect(slack.callsTo("chat.stopStream")).toEqual([]);
    expect(warnings()).toEqual([]);

    const actions = [
      { type: "button", action_id: "send_message_confirm", block_id: question.blockId, value: "send", action_ts: "1700000004.0" },
    ];
    const click = {
      actions,
      channel: { id: question.channel, name: "directmessage" },
      message: { type: "message", ts: question.ts, thread_ts: question.threadTs, text: "a question" },
      container: { type: "message", message_ts: question.ts, channel_id: question.channel, thread_ts: question.threadTs },
    };
    expect(await send(simulate.blockActions("send_message_confirm", "send", click))).toBe(200);
    const answer = await answerIn("D0WAIT", dm.ts, [question.ts]);
    const [posted] = slack.messagesIn("C0TEAM");
    expect(slack.messagesIn("C0TEAM")).toHaveLength(1);
    expect(posted?.text).toBe("standup moves to 10:30");
    expect(answer.text).toBe(standInAnswer(asked, ["Reacted with :bulb:", `Sent to <#C0TEAM> (ts ${posted?.ts})`]));
    expect(lastTasks("D0WAIT", dm.ts)).toEqual([{ add_emoji_reaction: "complete", send_message: "complete" }]);
    // The run went through twice (asked, then resumed): the reaction, a step, was made once.
    expect(slack.callsTo("reactions.add")).toHaveLength(1);
    expect(slack.callsTo("chat.postEphemeral")).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it("stops at the stop button mid-answer: no warning, nothing parked, no alert, counted as stopped", async () => {
    const dm = { channel: "D0STOP", channel_type: "im", ts: "1700000005.000100", text: "tell me everything" };
    expect(await send(simulate.message(dm))).toBe(200);
    await slack.waitFor("chat.appendStream", (call) => typeof call.body.markdown_text === "string", 10_000);
    const [streaming] = slack.messagesIn("D0STOP", dm.ts);
    const stop = { channel: "D0STOP", thread_ts: dm.ts, user: "U0000USER", streaming_message_ts: [streaming!.ts] };
    expect(await send(simulate.event("agent_session_stopped", stop))).toBe(200);
    await slack.waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    expect(await settled()).toEqual({ pending: 0, parked: 0, stopped: 1 });

    // The user sees the answer as far as it came, stopped, and nothing of the sample's catch.
    const shown = slack.message("D0STOP", streaming!.ts);
    expect(shown?.streaming).toBe(false);
    expect(standInAnswer(dm.text, ["Reacted with :bulb:"]).startsWith(shown!.text)).toBe(true);
    expect(shown?.text.length).toBeLessThan(standInAnswer(dm.text, ["Reacted with :bulb:"]).length);
    expect(warnings()).toEqual([]);
    // The operator: no dead letter, nothing waiting to alert and no alert sent.
    const parked = (await (await adminGet("/admin/api/parked")).json()) as { parked: unknown[] };
    expect(parked.parked).toEqual([]);
    expect((await (await adminGet(`/admin/shards/${team}/0/parked`)).json()) as unknown[]).toEqual([]);
    expect((await watchStub().stats()).outbox).toEqual({ pending: 0, parked: 0, stopped: 0 });
    expect(alerts.texts).toEqual([]);
  });

  it.each([
    ["its task's completion", 1],
    ["the answer's text", 2],
  ])("answers once, whole, after a transient 500 on the chat.appendStream of %s", async (_, failing) => {
    const clock = new TestClock();
    try {
      let appends = 0;
      const answer = slack.fetch;
      vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
        const request = new Request(input, init);
        if (request.url.endsWith("/chat.appendStream") && ++appends === failing)
          slack.failNext("chat.appendStream", { status: 500 });
        return request.url === ALERT_RECEIVER_URL ? alerts.handle(request) : answer(request);
      });
      const dm = { channel: "D0FAULT", channel_type: "im", ts: `170000000${failing}.000900`, text: "what is a fault?" };
      expect(await send(simulate.message(dm))).toBe(200);
      await slack.waitFor("chat.appendStream", (call) => call.status === 500, 10_000);
      // Recovered in its attempt (app/streams/replyMessages.ts): no retry to bring due, so the clock
      // stays (moved past the attempt's lease, another attempt would take the answer over).
      await slack.waitFor("chat.stopStream", (call) => call.body.blocks !== undefined, 10_000);
      await settled();
      // A text append whose outcome is unknown is not sent twice: its message is closed at what is
      // known to show, and the answer goes on in a new one — the whole answer once, across both.
      const messages = slack.messagesIn("D0FAULT", dm.ts);
      expect(messages.map((message) => message.text).join("")).toBe(standInAnswer(dm.text, ["Reacted with :bulb:"]));
      expect(messages.map((message) => message.state)).toEqual(messages.map(() => "stopped"));
      expect(messages.at(-1)?.blocks).toMatchObject(FEEDBACK);
      // A task's update alone is sent again in the same message: one message, its card complete.
      if (failing === 1) expect(messages).toHaveLength(1);
      expect(lastTasks("D0FAULT", dm.ts)).toEqual([{ add_emoji_reaction: "complete" }]);
      // One attempt, and the model's tool, a step, ran once.
      expect((await shardStub(team).stats()).counters.retried).toBe(0);
      expect(slack.callsTo("reactions.add")).toHaveLength(1);
      expect(warnings()).toEqual([]);
    } finally {
      clock.restore();
    }
  });

  it("declares, in the manifest made from it, the agent view and the stop button's event (AGENT_SESSIONS=true)", async () => {
    const response = await adminGet(`/admin/manifest?url=${encodeURIComponent("https://starter.example.com")}`);
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as {
      features: { agent_view?: unknown; app_home?: unknown };
      settings: { event_subscriptions: { bot_events: string[] } };
      oauth_config: { scopes: { bot: string[] } };
    };
    expect(manifest.features.agent_view).toEqual({
      agent_description: "Hi, I am an agent built using Bolt for JavaScript. I am here to help you out!",
      suggested_prompts: [],
    });
    // The sample's manifest.json: its App Home, its bot events and bot scopes — and the stop button's event.
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    const sampleEvents = ["app_home_opened", "app_mention", "message.channels", "message.groups", "message.im"];
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining([...sampleEvents, "agent_session_stopped"]),
    );
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(["app_mentions:read", "chat:write", "im:history", "reactions:write", "assistant:write"]),
    );
    expect(validate(slackSchema, manifest)).toEqual([]);
  });
});
