import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eventCallback, signedEvent } from "../../src/testing/deliveries";
import {
  agentSessionStopped,
  appContextChanged,
  appContextChangedAsDocumented,
  appHomeOpened,
  assistantAppThreadTitled,
  assistantThreadContextChanged,
  assistantThreadFileShare,
  assistantThreadMessage,
  assistantThreadStarted,
  BOT_USER,
  dmRootMessage,
  dmThread,
  USER,
  viewing,
} from "../support/assistantPayloads";
import { deliver, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { namedPost } from "../support/namedPost";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";

// Every event shape of Slack's assistant and agent surfaces (test/support/assistantPayloads.ts),
// signed and delivered to the demo's Worker as `npm start` serves it: which assistant handler
// ran, where its reply, status and stream went — or that the event is ignored with a 200. None is parked.

const slack = useFakeSlack();
const counted = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");

async function send(team: string, event: Record<string, unknown>): Promise<void> {
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()));
  expect(response.status).toBe(200);
}

/** The shard's outbox once no row is still pending (each look is one call into the shard, no timer). */
async function settledRows(team: string) {
  for (let looks = 0; ; looks++) {
    const rows = await outboxRows(shardStub(team));
    if (!rows.some((row) => row.status === "pending") || looks > 500) return rows;
  }
}

/** Nothing of `team`'s is left in its outbox: every effect done, none parked. */
async function expectAllDone(team: string) {
  expect(await settledRows(team)).toEqual([]);
}

/** The event was ignored: nothing to do recorded in the workspace's shard, no Slack call. */
async function expectIgnored(team: string) {
  expect(await storedFor(team)).toMatchObject({ outbox: { pending: 0, parked: 0, stopped: 0 } });
  expect(slack().calls).toEqual([]);
}

/** The calls of a counted answer in `channel`'s thread `threadTs`, in order, and the answer as Slack shows it. */
async function expectCountStreamed(channel: string, threadTs: string, n: number) {
  await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
  const place = { channel_id: channel, thread_ts: threadTs };
  const calls = slack().calls.filter((call) => call.method !== "chat.appendStream");
  expect(calls.map((call) => [call.method, call.body.status ?? call.body.thread_ts])).toEqual([
    ["agents.sessions.setStatus", "processing"],
    ["assistant.threads.setStatus", "is counting…"],
    ["chat.startStream", threadTs],
    ["chat.stopStream", undefined],
    ["assistant.threads.setStatus", ""],
    ["agents.sessions.setStatus", "active"],
  ]);
  // The user whose message started the turn initiates the session.
  expect(calls[0]!.body).toEqual({ ...place, status: "processing", initiator_user_id: USER });
  expect(calls[1]!.body).toMatchObject(place);
  expect(calls[2]!.body).toMatchObject({ channel, thread_ts: threadTs, recipient_user_id: USER });
  expect(calls[5]!.body).toEqual({ ...place, status: "active" });
  expect(slack().messagesIn(channel, threadTs)).toMatchObject([{ text: counted(n), streaming: false }]);
}

/**
 * The stop button pressed for `thread` while its answer streams: the stream stopped, the session
 * active, and the run of the thread's message kept as stopped (not parked), the stop's own effects all done.
 */
async function expectStopMeetsAnswer(team: string, thread: { channel: string; threadTs: string }) {
  await slack().waitFor("chat.startStream");
  const [streaming] = slack().messagesIn(thread.channel, thread.threadTs);
  await send(team, agentSessionStopped(thread, [streaming!.ts]));
  await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
  await slack().waitFor("chat.stopStream");
  expect(slack().message(thread.channel, streaming!.ts)).toMatchObject({ streaming: false });
  // Once nothing is pending (the stopped run's stream.close included), nothing of it can reach the next test's fake.
  const rows = await settledRows(team);
  expect(rows.map((row) => [row.idempotency_key.replace(/^[^:]*:/, ""), row.status, row.last_error])).toEqual([
    ["run:assistant:userMessage", "stopped", "stopped by user"],
  ]);
}

describe("the assistant view (assistant_view)", () => {
  it("assistant_thread_started → threadStarted: the greeting in the thread, prompts on it", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadStarted(thread, viewing("C0000SEEN", team)));
    const prompts = await slack().waitFor("assistant.threads.setSuggestedPrompts");
    expect(prompts.body).toMatchObject({ channel_id: thread.channel, thread_ts: thread.threadTs, prompts: [{}, {}] });
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body),
    ).toEqual([
      {
        channel: thread.channel,
        thread_ts: thread.threadTs,
        text: "Hi! I count, one number at a time. Ask me to “count to 30”.",
        metadata: namedPost("greeting"),
      },
    ]);
    await expectAllDone(team);
  });

  it("assistant_thread_context_changed → threadContextChanged (the default): the context saved for the thread", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadContextChanged(thread, viewing("C0000SEEN", team)));
    await expectAllDone(team);
    const saved = await runInDurableObject(shardStub(team), (_, state) =>
      state.storage.sql
        .exec<{ thread_ts: string; context: string }>(
          "SELECT thread_ts, context FROM assistant_threads WHERE channel = ?",
          thread.channel,
        )
        .toArray(),
    );
    expect(saved.map((row) => [row.thread_ts, JSON.parse(row.context)])).toEqual([[thread.threadTs, viewing("C0000SEEN", team)]]);
    expect(slack().calls).toEqual([]);
  });

  it("a user's message in the thread, as Slack sends it (assistant_thread: { action_token }) → userMessage, answered in the thread", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadMessage(thread, "count to 20"));
    await expectCountStreamed(thread.channel, thread.threadTs, 20);
    await expectAllDone(team);
  });

  it("a user's message in the thread without assistant_thread → userMessage, answered in the thread", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadMessage(thread, "count to 20", false));
    await expectCountStreamed(thread.channel, thread.threadTs, 20);
    await expectAllDone(team);
  });

  it("say() of userMessage posts in the thread the message names", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadMessage(thread, "what is up"));
    const reply = await slack().waitFor("chat.postMessage");
    expect(reply.body).toEqual({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: 'You said 3 words: "what is up".',
      metadata: namedPost(),
    });
    await expectAllDone(team);
  });

  it("a file the user shares in the thread (subtype file_share) → userMessage, answered in the thread", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadFileShare(thread, "read this"));
    const reply = await slack().waitFor("chat.postMessage");
    expect(reply.body).toEqual({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: 'You said 2 words: "read this".',
      metadata: namedPost(),
    });
    await expectAllDone(team);
  });

  it("the stop button in an assistant thread stops its answer and the session", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, assistantThreadMessage(thread, "count to 500"));
    await expectStopMeetsAnswer(team, thread);
  });

  it("Slack's own message_changed titling the thread's root (assistant_app_thread) is ignored with 200", async () => {
    const team = newWorkspace();
    await send(team, assistantAppThreadTitled(dmThread()));
    await expectIgnored(team);
  });

  it("the app's own reply echoed back as message.im is ignored with 200", async () => {
    const team = newWorkspace();
    const thread = dmThread();
    await send(team, { ...assistantThreadMessage(thread, "You said 1 word", false), user: BOT_USER, bot_id: "B0000FAKE" });
    await expectIgnored(team);
  });
});

describe("the agent view (agent_view)", () => {
  it("a top-level DM message (no thread_ts) → userMessage: it roots its own thread, answered there", async () => {
    const team = newWorkspace();
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "count to 20");
    await send(team, root);
    await expectCountStreamed(channel, root.ts, 20);
    await expectAllDone(team);
  });

  it("agent_session_stopped for the thread a DM message rooted stops its answer and the session", async () => {
    const team = newWorkspace();
    const { channel } = dmThread();
    const root = dmRootMessage(channel, "count to 500");
    await send(team, root);
    await expectStopMeetsAnswer(team, { channel, threadTs: root.ts });
  });

  it("app_home_opened on the messages tab → messagesTabOpened: prompts atop the tab, in no thread", async () => {
    const team = newWorkspace();
    const { channel } = dmThread();
    await send(team, appHomeOpened(channel, "messages"));
    const prompts = await slack().waitFor("assistant.threads.setSuggestedPrompts");
    expect(prompts.body).toEqual({
      channel_id: channel,
      title: "I count, one number at a time",
      prompts: [
        { title: "Count to 30", message: "count to 30" },
        { title: "Count to 500", message: "count to 500" },
      ],
    });
    await expectAllDone(team);
  });

  it("app_home_opened on the home tab is ignored with 200", async () => {
    const team = newWorkspace();
    await send(team, appHomeOpened(dmThread().channel, "home"));
    await expectIgnored(team);
  });

  it("app_context_changed, as documented and as typed, is ignored with 200 (the demo has no appContextChanged)", async () => {
    const team = newWorkspace();
    await send(team, appContextChangedAsDocumented("C0000SEEN", team));
    await send(team, appContextChanged(dmThread().channel, "C0000SEEN", team));
    await expectIgnored(team);
  });
});
