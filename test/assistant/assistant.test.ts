import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { Assistant } from "../../src/app/assistant/assistant";
import type { Step } from "../../src/app/contract/slackApp";
import type { Inbound } from "../../src/inbound/types";
import { HandlerMisuse } from "../../src/platform/errors";
import type { SlackWebClient } from "../../src/slack/client";
import { eventCallback, messageTs, signedEvent } from "../../src/testing/deliveries";
import { appContextChangedAsDocumented, assistantThreadMessage, dmThread } from "../support/assistantPayloads";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { namedPost } from "../support/namedPost";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const USER = "U0000USER";

/** An assistant thread: its DM channel and root, as Slack names them in `assistant_thread`. */
function assistantThread() {
  const channel = `D${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  return { channel, threadTs: messageTs() };
}

async function send(team: string, event: Record<string, unknown>): Promise<void> {
  const response = await deliver(
    await signedEvent(eventCallback({ event_ts: messageTs(), ...event }, { teamId: team }), signedBy()),
  );
  expect(response.status).toBe(200);
}

const threadEvent = (type: string, thread: { channel: string; threadTs: string }, context: Record<string, unknown>) => ({
  type,
  assistant_thread: { user_id: USER, context, channel_id: thread.channel, thread_ts: thread.threadTs },
});

const dm = (channel: string, text: string, threadTs?: string) => ({
  type: "message",
  channel,
  channel_type: "im",
  user: USER,
  text,
  ts: messageTs(),
  ...(threadTs ? { thread_ts: threadTs } : {}),
});

/** The first call of `method` about `channel` (a run of an earlier test may still be finishing in another). */
const callOf = async (method: string, channel: string) =>
  (await slack().waitForCall((call) => call.method === method && (call.body.channel ?? call.body.channel_id) === channel)).body;

describe("app.assistant", () => {
  it("a thread started: say lands in the thread, its suggested prompts and title are set on it", async () => {
    const thread = assistantThread();
    await send(newWorkspace(), threadEvent("assistant_thread_started", thread, { channel_id: "C0000VIEW" }));
    expect(await callOf("chat.postMessage", thread.channel)).toMatchObject({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: "How can I help?",
    });
    expect(await callOf("assistant.threads.setSuggestedPrompts", thread.channel)).toEqual({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      title: "Try these",
      prompts: [{ title: "Summarise", message: "summarise this channel" }],
    });
    expect(await callOf("assistant.threads.setTitle", thread.channel)).toEqual({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      title: "A new chat",
    });
  });

  it("a context change is saved in the thread's shard (by default) and a later message's getThreadContext reads it, after eviction too", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const thread = assistantThread();
    const context = { channel_id: "C0000SEEN", team_id: team, enterprise_id: null };
    await send(team, threadEvent("assistant_thread_context_changed", thread, context));
    await sweepUntilQuiet(shardStub(team), clock, 2);
    expect(await storedFor(team)).toMatchObject({ outbox: { pending: 0, parked: 0, stopped: 0 } });
    const saved = await runInDurableObject(shardStub(team), (_, state) =>
      state.storage.sql
        .exec<{ context: string }>("SELECT context FROM assistant_threads WHERE channel = ?", thread.channel)
        .toArray(),
    );
    expect(saved.map((row) => JSON.parse(row.context))).toEqual([context]);

    // A fresh object: what the next run reads comes from SQLite, not from memory.
    await evictDurableObject(shardStub(team));
    await send(team, dm(thread.channel, "what am I looking at?", thread.threadTs));
    expect(await callOf("chat.postMessage", thread.channel)).toMatchObject({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: 'you said "what am I looking at?" while viewing C0000SEEN',
    });
  });

  it("a user's message in the thread is answered in it, with the status set there first", async () => {
    const thread = assistantThread();
    await send(newWorkspace(), dm(thread.channel, "hello there", thread.threadTs));
    expect(await callOf("assistant.threads.setStatus", thread.channel)).toEqual({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      status: "is thinking…",
    });
    expect(await callOf("chat.postMessage", thread.channel)).toMatchObject({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: 'you said "hello there" while viewing nothing',
    });
  });

  it("agent view: a user's message at the top of the DM is the root of its own thread", async () => {
    const { channel } = assistantThread();
    const root = dm(channel, "a new question");
    await send(newWorkspace(), root);
    expect(await callOf("chat.postMessage", channel)).toMatchObject({ channel, thread_ts: root.ts });
  });

  it("agent view: app_home_opened on the Messages tab reaches messagesTabOpened; its prompts carry no thread_ts", async () => {
    const { channel } = assistantThread();
    await send(newWorkspace(), { type: "app_home_opened", user: USER, channel, tab: "messages" });
    expect(await callOf("chat.postMessage", channel)).toEqual({
      channel,
      text: "welcome to the Messages tab",
      metadata: namedPost(),
    });
    expect(await callOf("assistant.threads.setSuggestedPrompts", channel)).toEqual({
      channel_id: channel,
      prompts: [{ title: "Start", message: "hello" }],
    });
  });

  it("a message in a channel, not the app's DM, does not reach userMessage", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    await send(team, { ...dm("C0000CHAN", "hello in a channel"), channel_type: "channel" });
    await sweepUntilQuiet(shardStub(team), clock, 2);
    expect(slack().calls.filter((call) => call.body.channel === "C0000CHAN")).toEqual([]);
  });
});

/** Runs `listener` of `app` for `inbound` outside a shard, with a client that records its calls. */
async function callsOfRun(app: App, listener: string, inbound: Inbound): Promise<[string, Record<string, unknown>][]> {
  const calls: [string, Record<string, unknown>][] = [];
  const client = {
    call: async (method: string, body: Record<string, unknown>) => {
      calls.push([method, body]);
      return { ok: true };
    },
  };
  const step: Step = async (_name, fn) => await fn();
  const tools = { client: client as unknown as SlackWebClient, step, attempt: 1 };
  await app.run({ type: "run", listener, inbound }, tools);
  return calls;
}

describe("say() in a plain listener of an assistant thread's event", () => {
  it("posts in the thread the event names (assistant_thread.channel_id / thread_ts)", async () => {
    const app = new App().event("assistant_thread_started", async ({ say }) => {
      await say("hi");
    });
    const thread = assistantThread();
    const payload = { event: threadEvent("assistant_thread_started", thread, {}) };
    const inbound = {
      kind: "event" as const,
      dedupeKey: "Ev1",
      workspace: "T1",
      isEnterpriseInstall: false,
      type: "assistant_thread_started",
      payload,
    };
    const calls = await callsOfRun(app, "event:assistant_thread_started", inbound);
    expect(calls).toEqual([["chat.postMessage", { channel: thread.channel, thread_ts: thread.threadTs, text: "hi" }]]);
  });
});

describe("say() in a plain listener of a user's message in an assistant thread", () => {
  it("posts in the thread the message names, its assistant_thread holding only an action_token", async () => {
    const app = new App().event("message", async ({ say }) => {
      await say("hi");
    });
    const thread = dmThread();
    const calls = await callsOfRun(app, "event:message", eventDelivery("T1", assistantThreadMessage(thread, "hello")));
    expect(calls).toEqual([["chat.postMessage", { channel: thread.channel, thread_ts: thread.threadTs, text: "hi" }]]);
  });
});

describe("Assistant", () => {
  it("needs threadStarted and userMessage, as Bolt's does", () => {
    expect(() => new Assistant({ userMessage: async () => {} } as never)).toThrow("Assistant needs a threadStarted function");
    expect(() => new App().assistant({ threadStarted: async () => {} } as never)).toThrow(
      "Assistant needs a userMessage function",
    );
  });

  it("app_context_changed as Slack documents it (no channel) runs appContextChanged; only a tool that needs the DM is a misuse", async () => {
    const seen: unknown[] = [];
    const app = new App().assistant({
      threadStarted: async () => {},
      userMessage: async () => {},
      appContextChanged: async ({ event, say }) => {
        seen.push(event.context);
        await say("you moved");
      },
    });
    const step: Step = async (_name, fn) => await fn();
    const inbound = eventDelivery("T1", appContextChangedAsDocumented("C0000SEEN", "T1"));
    const tools = { client: {} as SlackWebClient, step, attempt: 1 };
    const run = app.run({ type: "run", listener: "assistant:appContextChanged", inbound }, tools);
    await expect(run).rejects.toThrow("say() needs the app's DM channel, and this app_context_changed event names none");
    expect(seen).toEqual([{ entities: [{ type: "slack#/types/channel_id", value: "C0000SEEN", team_id: "T1" }] }]);
  });

  it("the agent view's own events have no thread: setTitle() there is a misuse, parked at once", async () => {
    const app = new App().assistant({
      threadStarted: async () => {},
      userMessage: async () => {},
      // Not in its type (the agent view's events get say and setSuggestedPrompts); called as untyped code would.
      messagesTabOpened: async (args) => {
        await (args as unknown as { setTitle(title: string): Promise<void> }).setTitle("no thread here");
      },
    });
    const step: Step = async (_name, fn) => await fn();
    const event = { type: "app_home_opened", user: USER, channel: "D0000HOME", tab: "messages" };
    const inbound = {
      kind: "event" as const,
      dedupeKey: "Ev2",
      workspace: "T1",
      isEnterpriseInstall: false,
      type: "app_home_opened",
      payload: { event },
    };
    const tools = { client: {} as SlackWebClient, step, attempt: 1 };
    const run = app.run({ type: "run", listener: "assistant:messagesTabOpened", inbound }, tools);
    await expect(run).rejects.toThrow(HandlerMisuse);
    await expect(run).rejects.toThrow("setTitle() needs an assistant thread, and this app_home_opened event has none");
  });
});
