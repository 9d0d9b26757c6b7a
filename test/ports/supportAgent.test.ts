import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeSlack, SlackSimulator, waitUntilSettled } from "../../src/testing";

// Slack's support agent (Casey, its openai-agents-sdk variant), ported (supportAgent.ts and
// supportAgent/), served by the coordinator in workerd; the model is the port's local stand-in.
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
  // Every run of this test (a status still being cleared, say) lands in this test's fake.
  await waitUntilSettled({ shard: env.SHARD, workspace: team });
  vi.restoreAllMocks();
});

const send = async (request: Promise<Request>) => (await exports.default.fetch(await request)).status;
const FEEDBACK = [{ type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "feedback" }] }];

/** The agent's answer in a thread: one streamed message, stopped with the feedback buttons. */
async function answerIn(channel: string, threadTs: string) {
  await slack.waitFor("chat.stopStream", (call) => call.body.channel === channel);
  await waitUntilSettled({ shard: env.SHARD, workspace: team });
  // The thread's parent is listed too when the app posted it (the issue's post).
  const answers = slack.messagesIn(channel, threadTs).filter((message) => message.ts !== threadTs);
  expect(answers).toHaveLength(1);
  expect(answers[0]).toMatchObject({ state: "stopped", blocks: FEEDBACK });
  return answers[0].text;
}

describe("the ported support agent", () => {
  it("publishes the App Home: the category buttons, the bot's mention, the MCP server's state", async () => {
    expect(await send(simulate.event("app_home_opened", { user: "U0HOME", channel: "D0HOME", tab: "home" }))).toBe(200);
    const published = await slack.waitFor("views.publish");
    expect(published.body).toMatchObject({ user_id: "U0HOME", view: { type: "home" } });
    const blocks = JSON.stringify(published.body.view);
    for (const id of ["password_reset", "access_request", "software_help", "network_issues", "something_else"])
      expect(blocks).toContain(`"action_id":"category_${id}"`);
    expect(blocks).toContain("mention me in any channel with <@U0000BOT>");
    expect(blocks).toContain("Learn how to enable the Slack MCP Server.");
  });

  it("answers a DM: eyes, a status, the agent's tool call, its answer streamed with feedback buttons", async () => {
    const ts = "1700000001.000100";
    expect(
      await send(simulate.message({ channel: "D0DM", channel_type: "im", user: "U0ALICE", ts, text: "my vpn is down" })),
    ).toBe(200);
    const text = await answerIn("D0DM", ts);
    expect(text).toContain("message 1 of this thread");
    expect(text).toContain("**VPN Connection Troubleshooting** (KB-1001)");
    expect(slack.callsTo("reactions.add").map((call) => call.body)).toEqual([
      expect.objectContaining({ channel: "D0DM", timestamp: ts, name: "eyes" }),
      expect.objectContaining({ channel: "D0DM", timestamp: ts, name: "wrench" }), // the stand-in's add_emoji_reaction
    ]);
    expect(slack.callsTo("assistant.threads.setStatus")[0].body).toMatchObject({
      channel_id: "D0DM",
      thread_ts: ts,
      status: "Thinking…",
    });
    expect(slack.callsTo("chat.startStream")[0].body).toMatchObject({ channel: "D0DM", thread_ts: ts });
  });

  it("answers a mention, then the thread's replies with its context; not threads it is not in", async () => {
    const ts = "1700000002.000100";
    expect(await send(simulate.appMention({ channel: "C0HELP", ts, text: "<@U0000BOT> my password expired" }))).toBe(200);
    expect(await answerIn("C0HELP", ts)).toContain("message 1 of this thread");
    expect(slack.callsTo("chat.startStream")[0].body).toMatchObject({ recipient_user_id: "U0000USER", recipient_team_id: team });

    const reply = simulate.message({ channel: "C0HELP", thread_ts: ts, ts: "1700000002.000200", text: "the reset page fails" });
    expect(await send(reply)).toBe(200);
    await slack.waitFor(
      "chat.stopStream",
      (call) => call.body.channel === "C0HELP" && call.body.ts !== slack.messagesIn("C0HELP")[0].ts,
    );
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
    const [first, second] = slack.messagesIn("C0HELP", ts);
    expect(second.text).toContain("message 2 of this thread");
    expect(first.text).toContain("Password Policy and Reset Guide");
    // A thread reply only: no eyes on it (the mention has them).
    expect(slack.callsTo("reactions.add").filter((call) => call.body.name === "eyes")).toHaveLength(1);

    const elsewhere = simulate.message({ channel: "C0HELP", thread_ts: "1700000000.000001", text: "my vpn is down" });
    expect(await send(elsewhere)).toBe(200);
    expect(await send(simulate.message({ channel: "C0HELP", text: "my vpn is down" }))).toBe(200);
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
    expect(slack.callsTo("chat.startStream")).toHaveLength(2);
  });

  it("greets an empty mention in its thread", async () => {
    const ts = "1700000003.000100";
    expect(await send(simulate.appMention({ channel: "C0EMPTY", ts, text: "<@U0000BOT>" }))).toBe(200);
    expect((await slack.waitFor("chat.postMessage")).body).toMatchObject({
      channel: "C0EMPTY",
      thread_ts: ts,
      text: expect.stringContaining("How can I help you?"),
    });
  });

  it("thanks for good feedback and offers a ticket for bad, ephemerally in the answer's thread", async () => {
    const answer = {
      channel: { id: "D0DM", name: "casey" },
      message: { type: "message", ts: "1700000004.000100", text: "an answer" },
    };
    expect(await send(simulate.blockActions("feedback", "good-feedback", answer))).toBe(200);
    expect(await send(simulate.blockActions("feedback", "bad-feedback", answer))).toBe(200);
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
    const texts = slack.callsTo("chat.postEphemeral").map((call) => call.body);
    expect(texts).toHaveLength(2);
    for (const body of texts) expect(body).toMatchObject({ channel: "D0DM", user: "U0000USER", thread_ts: "1700000004.000100" });
    expect(texts.map((body) => body.text)).toEqual(
      expect.arrayContaining(["Glad that was helpful! :tada:", expect.stringContaining("I can create a support ticket for you")]),
    );
  });

  it("opens the issue modal from the App Home's button; its submission is posted into the DM and answered there", async () => {
    const fromHome = { channel: undefined, message: undefined, container: { type: "view", view_id: "V0HOME" } };
    expect(await send(simulate.blockActions("category_network_issues", "Network Issues", fromHome))).toBe(200);
    const opened = await slack.waitFor("views.open");
    expect(opened.body).toMatchObject({
      view: {
        callback_id: "issue_submission",
        blocks: [
          { block_id: "category_block", element: { initial_option: { value: "Network Issues" } } },
          { block_id: "description_block" },
        ],
      },
    });

    const values = {
      category_block: {
        category_select: {
          type: "static_select",
          selected_option: { text: { type: "plain_text", text: "Network Issues" }, value: "Network Issues" },
        },
      },
      description_block: { description_input: "the office wifi keeps dropping" },
    };
    expect(await send(simulate.viewSubmission("issue_submission", values))).toBe(200);
    const posted = await slack.waitFor("chat.postMessage");
    expect(slack.callsTo("conversations.open")[0].body).toMatchObject({ users: "U0000USER" });
    expect(posted.body).toMatchObject({
      channel: "D0000USER", // the fake's DM with U0000USER, as conversations.open answered
      text: "*Category:* Network Issues\n*Description:* the office wifi keeps dropping",
      metadata: { event_type: "issue_submission", event_payload: { user_id: "U0000USER" } },
    });
    await waitUntilSettled({ shard: env.SHARD, workspace: team });

    // Slack delivers the app's own post as a message event in the DM: the message listener answers it.
    const [issue] = slack.messagesIn("D0000USER");
    const own = {
      channel: "D0000USER",
      channel_type: "im",
      user: "U0000BOT",
      bot_id: "B0000BOT",
      ts: issue.ts,
      text: issue.text,
    };
    expect(await send(simulate.message({ ...own, metadata: posted.body.metadata }))).toBe(200);
    const text = await answerIn("D0000USER", issue.ts);
    expect(text).toContain("**Office Wi-Fi Connection Guide** (KB-1003)");
    expect(slack.callsTo("reactions.add").map((call) => call.body.name)).toEqual(["eyes", "wrench"]);

    // Its own answer, delivered back the same way, is a bot's message without the issue's metadata: not answered.
    const [, answer] = slack.messagesIn("D0000USER");
    expect(await send(simulate.message({ ...own, ts: answer.ts, text: answer.text }))).toBe(200);
    await waitUntilSettled({ shard: env.SHARD, workspace: team });
    expect(slack.callsTo("chat.startStream")).toHaveLength(1);
  });

  it("suggests its prompts when an assistant thread starts", async () => {
    const assistant_thread = { user_id: "U0000USER", channel_id: "D0DM", thread_ts: "1700000005.000100", context: {} };
    expect(await send(simulate.event("assistant_thread_started", { assistant_thread }))).toBe(200);
    expect((await slack.waitFor("assistant.threads.setSuggestedPrompts")).body).toMatchObject({
      channel_id: "D0DM",
      thread_ts: "1700000005.000100",
      title: "How can I help you today?",
      prompts: [{ title: "Reset Password" }, { title: "Request Access" }, { title: "Network Issues" }],
    });
  });
});
