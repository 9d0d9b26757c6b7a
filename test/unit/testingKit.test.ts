import { describe, expect, it } from "vitest";
import { verifySignature } from "../../src/slack/verifySignature";
import { FakeSlack, SlackSimulator } from "../../src/testing";

// The public test kit in plain Node: it must load without workerd and answer like Slack.

// biome-ignore lint/suspicious/noExplicitAny: Slack's JSON answers, read by path in assertions.
type Json = any;

const post = (slack: FakeSlack, method: string, body: Record<string, unknown>, token = "xoxb-1") =>
  slack.fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const answer = async (slack: FakeSlack, method: string, body: Record<string, unknown>) =>
  (await (await post(slack, method, body)).json()) as Record<string, Json>;

describe("FakeSlack", () => {
  it("records each call's method, arguments and token, and answers posts with a ts that reads back", async () => {
    const slack = new FakeSlack();
    const posted = await answer(slack, "chat.postMessage", { channel: "C1", text: "first" });
    expect(posted).toMatchObject({ ok: true, channel: "C1", message: { text: "first", ts: posted.ts } });
    expect(posted.ts).toMatch(/^\d+\.\d{6}$/);
    await answer(slack, "chat.postMessage", { channel: "C1", text: "reply", thread_ts: posted.ts });
    await answer(slack, "chat.update", { channel: "C1", ts: posted.ts, text: "edited" });
    expect(slack.calls.map((c) => [c.method, c.token])).toEqual([
      ["chat.postMessage", "Bearer xoxb-1"],
      ["chat.postMessage", "Bearer xoxb-1"],
      ["chat.update", "Bearer xoxb-1"],
    ]);
    const history = await answer(slack, "conversations.history", { channel: "C1" });
    expect(history.messages.map((m: { text: string }) => m.text)).toEqual(["reply", "edited"]);
    const replies = await answer(slack, "conversations.replies", { channel: "C1", ts: posted.ts });
    expect(replies.messages.map((m: { text: string }) => m.text)).toEqual(["edited", "reply"]);
    expect(await answer(slack, "chat.postEphemeral", { channel: "C1", user: "U1", text: "psst" })).toMatchObject({
      ok: true,
      message_ts: expect.stringMatching(/^\d+\.\d{6}$/),
    });
    // auth.test names the bot the fake posts as; a method without an answer of its own is plain ok.
    expect(await answer(slack, "auth.test", {})).toMatchObject({ ok: true, bot_id: "B0000FAKE" });
    expect(await answer(slack, "reactions.add", { channel: "C1", name: "eyes", timestamp: posted.ts })).toEqual({ ok: true });
    // Slack shows an update's markdown_text as its text.
    await answer(slack, "chat.update", { channel: "C1", ts: posted.ts, markdown_text: "**bold**" });
    expect(slack.message("C1", posted.ts)?.text).toBe("**bold**");
  });

  it("posts as another app (postAs): no call recorded, read back beside the app's own messages with who posted each", async () => {
    const slack = new FakeSlack();
    const root = await answer(slack, "chat.postMessage", { channel: "C1", text: "ours" });
    const other = { bot_id: "B0000OTHER", app_id: "A0000OTHER", user: "U0000OTHER" };
    const metadata = { event_type: "e", event_payload: { id: "x" } };
    const ts = slack.postAs(other, "C1", { thread_ts: root.ts, text: "theirs", metadata });
    expect(slack.calls.map((c) => c.method)).toEqual(["chat.postMessage"]);
    const replies = await answer(slack, "conversations.replies", { channel: "C1", ts: root.ts, include_all_metadata: true });
    expect(replies.messages).toEqual([
      expect.objectContaining({ ts: root.ts, text: "ours", bot_id: "B0000FAKE", app_id: "A0000TEST", user: "U0000BOT" }),
      expect.objectContaining({ ts, text: "theirs", thread_ts: root.ts, metadata, ...other }),
    ]);
    // auth.test names who the app's own messages are by.
    expect(await answer(slack, "auth.test", {})).toMatchObject({ bot_id: "B0000FAKE", app_id: "A0000TEST", user_id: "U0000BOT" });
  });

  it("answers views.* with the view and an id; views.update keeps the view's id", async () => {
    const slack = new FakeSlack();
    const opened = await answer(slack, "views.open", { trigger_id: "1.2", view: { type: "modal", callback_id: "m" } });
    expect(opened.view).toMatchObject({ id: expect.stringMatching(/^V/), type: "modal", callback_id: "m" });
    const updated = await answer(slack, "views.update", { view_id: opened.view.id, view: { type: "modal" } });
    expect(updated.view.id).toBe(opened.view.id);
    expect((await answer(slack, "views.publish", { user_id: "U1", view: { blocks: [] } })).view.type).toBe("home");
  });

  it("answers conversations.open with the DM's channel, the same one each time, as a DM posted to then reads back", async () => {
    const slack = new FakeSlack();
    const dm = await answer(slack, "conversations.open", { users: "U0ALICE" });
    expect(dm).toEqual({ ok: true, channel: { id: expect.stringMatching(/^D/) } });
    expect(await answer(slack, "conversations.open", { users: "U0ALICE" })).toEqual(dm);
    expect((await answer(slack, "conversations.open", { users: "U0BOB" })).channel.id).not.toBe(dm.channel.id);
    const group = await answer(slack, "conversations.open", { users: "U0BOB,U0ALICE" });
    expect(group.channel.id).toMatch(/^G/);
    expect(await answer(slack, "conversations.open", { users: "U0ALICE,U0BOB" })).toEqual(group);
    expect(await answer(slack, "conversations.open", { channel: dm.channel.id })).toEqual(dm);
    expect(await answer(slack, "conversations.open", {})).toEqual({ ok: false, error: "users_list_not_supplied" });
    await answer(slack, "chat.postMessage", { channel: dm.channel.id, text: "hi" });
    expect(slack.messagesIn(dm.channel.id)).toMatchObject([{ text: "hi" }]);
  });

  it("answers agents.sessions.setStatus as Slack documents it: one of its four statuses, for a thread", async () => {
    const slack = new FakeSlack();
    const thread = { channel_id: "D1", thread_ts: "1.000100" };
    for (const status of ["processing", "active", "suspended", "closed"])
      expect(await answer(slack, "agents.sessions.setStatus", { ...thread, status })).toEqual({ ok: true, status });
    expect(await answer(slack, "agents.sessions.setStatus", { ...thread, status: "busy" })).toEqual({
      ok: false,
      error: "invalid_arguments",
    });
    expect(await answer(slack, "agents.sessions.setStatus", { channel_id: "D1", status: "active" })).toMatchObject({ ok: false });
  });

  it("answers agents.sessions.rename as Slack documents it: a thread's session, a title of 1 to 200 characters", async () => {
    const slack = new FakeSlack();
    const thread = { channel_id: "D1", thread_ts: "1.000100" };
    const refused = { ok: false, error: "invalid_arguments" };
    expect(await answer(slack, "agents.sessions.rename", { ...thread, title: "Counting to 30" })).toEqual({ ok: true });
    expect(await answer(slack, "agents.sessions.rename", { ...thread, title: "x" })).toEqual({ ok: true });
    expect(await answer(slack, "agents.sessions.rename", { ...thread, title: "x".repeat(200) })).toEqual({ ok: true });
    expect(await answer(slack, "agents.sessions.rename", { ...thread, title: "x".repeat(201) })).toEqual(refused);
    expect(await answer(slack, "agents.sessions.rename", { ...thread, title: "" })).toEqual(refused);
    expect(await answer(slack, "agents.sessions.rename", thread)).toEqual(refused);
    expect(await answer(slack, "agents.sessions.rename", { channel_id: "D1", title: "no thread" })).toEqual(refused);
    expect(await answer(slack, "agents.sessions.rename", { thread_ts: "1.000100", title: "no channel" })).toEqual(refused);
    // A name Slack does not have is still answered as Slack answers it.
    expect(await answer(slack, "agents.sessions.retitle", { ...thread, title: "t" })).toEqual({
      ok: false,
      error: "unknown_method",
    });
  });

  it("streams: startStream opens, appendStream accumulates, stopStream closes; appending after it is an error", async () => {
    const slack = new FakeSlack();
    const { ts } = await answer(slack, "chat.startStream", {
      channel: "C1",
      thread_ts: "1.1",
      recipient_user_id: "U1",
      recipient_team_id: "T1",
      markdown_text: "He",
    });
    await answer(slack, "chat.appendStream", { channel: "C1", ts, markdown_text: "llo" });
    const stopped = await answer(slack, "chat.stopStream", { channel: "C1", ts, markdown_text: "!" });
    expect(stopped).toMatchObject({ ok: true, message: { text: "Hello!" } });
    expect(await answer(slack, "chat.appendStream", { channel: "C1", ts, markdown_text: "x" })).toEqual({
      ok: false,
      error: "message_not_in_streaming_state",
    });
  });

  it("fails on request: a status with Retry-After, a Slack error, a hang ended by the caller", async () => {
    const slack = new FakeSlack();
    slack.failNext("chat.postMessage", { status: 429, retryAfter: 7 }).failNext("users.info", { error: "user_not_found" });
    const limited = await post(slack, "chat.postMessage", { channel: "C1" });
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "7"]);
    expect(await limited.json()).toEqual({ ok: false, error: "ratelimited" });
    expect(await answer(slack, "users.info", { user: "U1" })).toEqual({ ok: false, error: "user_not_found" });
    expect((await answer(slack, "chat.postMessage", { channel: "C1" })).ok).toBe(true);
    slack.failNext("chat.update", { hang: true });
    const abort = new AbortController();
    const hung = slack.fetch(`${slack.apiUrl}chat.update`, { method: "POST", body: "{}", signal: abort.signal });
    abort.abort(new Error("caller gave up"));
    await expect(hung).rejects.toThrow("caller gave up");
  });

  it("waitFor resolves with the matching call, and names the calls made when none comes in time", async () => {
    const slack = new FakeSlack();
    const waited = slack.waitFor("chat.postMessage", (c) => c.body.channel === "C2");
    await answer(slack, "chat.postMessage", { channel: "C1" });
    await answer(slack, "chat.postMessage", { channel: "C2" });
    expect((await waited).body.channel).toBe("C2");
    await expect(slack.waitFor("views.open", undefined, 1)).rejects.toThrow(
      "no views.open call within 1 ms (calls made: chat.postMessage, chat.postMessage)",
    );
  });
});

describe("SlackSimulator", () => {
  const secret = "kit-secret";
  const simulate = new SlackSimulator({ signingSecret: secret, teamId: "T0KIT" });
  const verified = async (request: Request) => {
    const body = await request.text();
    await verifySignature({
      secrets: [secret],
      body: new TextEncoder().encode(body),
      nowSeconds: Math.floor(Date.now() / 1000),
      timestamp: request.headers.get("x-slack-request-timestamp"),
      signature: request.headers.get("x-slack-signature"),
    });
    return body;
  };

  it("signs events, commands and interactivity as Slack does, to Slack's three paths, overrides on top", async () => {
    const mention = await simulate.appMention({ channel: "C9" });
    expect(new URL(mention.url).pathname).toBe("/slack/events");
    expect(JSON.parse(await verified(mention))).toMatchObject({
      team_id: "T0KIT",
      event: { type: "app_mention", channel: "C9" },
    });
    const command = await simulate.command("deploy", "now", { channel_id: "C7" });
    expect(new URL(command.url).pathname).toBe("/slack/commands");
    expect(Object.fromEntries(new URLSearchParams(await verified(command)))).toMatchObject({
      command: "/deploy",
      text: "now",
      channel_id: "C7",
      team_id: "T0KIT",
    });
    const payloadOf = async (request: Request) =>
      JSON.parse(new URLSearchParams(await verified(request)).get("payload")!) as Record<string, Json>;
    const click = await simulate.blockActions("approve", "yes-please");
    expect(new URL(click.url).pathname).toBe("/slack/interactivity");
    expect((await payloadOf(click)).actions[0]).toMatchObject({ action_id: "approve", value: "yes-please" });
    expect(await payloadOf(await simulate.blockSuggestion("pick", "ab"))).toMatchObject({
      type: "block_suggestion",
      action_id: "pick",
      value: "ab",
    });
    const submission = await payloadOf(await simulate.viewSubmission("m", { b: { a: "typed" } }));
    expect(submission.view.state.values.b.a).toEqual({ type: "plain_text_input", value: "typed" });
    const step = JSON.parse(await verified(await simulate.functionExecuted("greet", { user_id: "U1" })));
    expect(step.event).toMatchObject({
      type: "function_executed",
      function: { callback_id: "greet" },
      inputs: { user_id: "U1" },
    });
  });

  it("sends agent_session_title_changed with Slack's documented fields, and no ts", async () => {
    const rename = { channel: "D9", thread_ts: "1782234671.392669", title: "Bora Bora trip prep", previous_title: "Scuba" };
    const { event } = JSON.parse(await verified(await simulate.agentSessionTitleChanged(rename)));
    expect(Object.keys(event).sort()).toEqual(
      ["channel", "event_ts", "previous_title", "team_id", "thread_ts", "title", "type", "user"].sort(),
    );
    expect(event).toMatchObject({ ...rename, type: "agent_session_title_changed", team_id: "T0KIT", user: "U0000USER" });
  });
});

describe("docs/guides/testing.md", () => {
  it("shows test/example/kit.test.ts as it is, importing the package's entry instead of src/testing", async () => {
    const { readFileSync } = await import("node:fs");
    const guide = readFileSync("docs/guides/testing.md", "utf8");
    const shown = /## A test\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(guide)![1];
    const file = readFileSync("test/example/kit.test.ts", "utf8")
      .replace(/^\/\/ The public test kit only.*\n/m, "")
      .replace('from "../../src/testing"', 'from "slack-durable-coordinator/testing"');
    expect(shown).toBe(file);
  });
});
