import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { StreamRecord } from "../../src/app/streams/record/checkpoint";
import { exampleApp } from "../../src/example/app";
import { appMention, blockActions, eventCallback, messageTs, signedEvent, signedInteraction } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { outboxRows } from "../support/outboxRows";
import { workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

// The demo as an agent (src/example/agent.ts): "count to N" answered by its stand-in model with a
// stream alone, a status, the stop button and feedback buttons, with the settings `npm start` gives
// it (.dev.vars.example). The model counts one number every DEMO_COUNT_INTERVAL_MS (5 ms in this
// project, test/support/testBindings.ts).

const slack = useFakeSlack();

/** What Slack shows once the answer is complete: every number, one space apart. */
const counted = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");

async function send(team: string, event: Record<string, unknown>): Promise<void> {
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()));
  expect(response.status).toBe(200);
}

/** A user's message in the app's DM (its own unless told): the root of its own thread (agent view), or in an assistant thread. */
function dmMessage(text: string, place: { channel?: string; threadTs?: string } = {}) {
  const ts = messageTs();
  const channel = place.channel ?? `D${ts.replace(".", "").slice(-9)}`;
  const thread = place.threadTs ? { thread_ts: place.threadTs } : {};
  return { type: "message", channel_type: "im", channel, user: "U0000USER", text, ts, ...thread };
}

/**
 * The demo's run in `team`'s shard once no attempt holds it (its claim released), or as it is
 * when `withinMs` have passed: an attempt in flight has no other outside sign.
 */
async function runLetGo(team: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const [run] = (await outboxRows(shardStub(team))).filter((row) => row.idempotency_key.includes(":run:"));
    if (!run?.claim_token || Date.now() >= deadline) return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the shard's run has checkpointed its stream's first text: a stop then meets it
 * mid-answer, where only its signal can end the model's work early.
 */
async function firstFlushCheckpointed(state: DurableObjectState): Promise<void> {
  const query = `SELECT steps ->> '$."stream #0"' AS checkpoint FROM outbox WHERE effect = 'run'`;
  for (let tries = 0; tries < 300; tries++) {
    const [row] = state.storage.sql.exec<{ checkpoint: string | null }>(query).toArray();
    const record = row?.checkpoint ? (JSON.parse(row.checkpoint) as StreamRecord) : undefined;
    // Its first text recorded: Slack's answer to the first text's flush is checkpointed (the count's task went before it).
    if (record?.messages.some((message) => message.text !== "")) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the run never checkpointed its first flush");
}

/** The run's session is active again: its work is over (finished or stopped). */
const sessionActive = () => slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");

/** Asserts the thread holds the complete answer to "count to 20", streamed, and nothing else. */
async function expectCountedTo20(channel: string, threadTs: string) {
  await slack().waitFor("chat.stopStream");
  await sessionActive();
  const messages = slack().messagesIn(channel, threadTs);
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({ text: counted(20), state: "stopped", streaming: false });
  expect(messages[0]!.blocks).toMatchObject([
    { type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "answer_feedback" }] },
  ]);
  // The stream alone: no placeholder, no update of one.
  expect(slack().callsTo("chat.postMessage")).toEqual([]);
  expect(slack().callsTo("chat.update")).toEqual([]);
  const [status] = slack().callsTo("assistant.threads.setStatus");
  expect(status!.body).toMatchObject({ channel_id: channel, thread_ts: threadTs, status: "is counting…" });
  const sessions = slack().callsTo("agents.sessions.setStatus");
  expect(sessions.map((call) => call.body)).toEqual([
    { channel_id: channel, thread_ts: threadTs, status: "processing", initiator_user_id: "U0000USER" },
    { channel_id: channel, thread_ts: threadTs, status: "active" },
  ]);
}

describe("the demo agent: count to N", () => {
  it("in a channel thread: one streamed message, exactly 1 … 20, stopped with feedback buttons, a status set", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const event = appMention({ text: "<@U0000BOT> count to 20", threadTs });
    await send(team, event);
    await expectCountedTo20(String(event.channel), threadTs);
    // Outside a DM Slack streams to the user who asked.
    expect(slack().callsTo("chat.startStream")[0]!.body).toMatchObject({
      thread_ts: threadTs,
      recipient_user_id: "U0000USER",
      recipient_team_id: team,
    });
  });

  it("is an agent session by default (npm start's settings): processing, the status, the stream, then active, in that order", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const event = appMention({ text: "<@U0000BOT> count to 20", threadTs });
    await send(team, event);
    await sessionActive();
    const thread = { channel_id: String(event.channel), thread_ts: threadTs };
    const calls = slack().calls.filter((call) => call.method !== "chat.appendStream");
    expect(calls.map((call) => call.method)).toEqual([
      "agents.sessions.setStatus",
      "assistant.threads.setStatus",
      "chat.startStream",
      "chat.stopStream",
      "assistant.threads.setStatus",
      "agents.sessions.setStatus",
    ]);
    expect(calls[0]!.body).toEqual({ ...thread, status: "processing", initiator_user_id: "U0000USER" });
    expect(calls[5]!.body).toEqual({ ...thread, status: "active" });
    // The whole stream, its appends included, happens while the session is processing.
    const methods = slack().calls.map((call) => call.method);
    expect(methods.lastIndexOf("chat.appendStream")).toBeLessThan(methods.lastIndexOf("agents.sessions.setStatus"));
    expect(methods.indexOf("chat.appendStream")).toBeGreaterThan(methods.indexOf("agents.sessions.setStatus"));
  });

  it("in the app's DM: a message is the root of its own thread, answered in it", async () => {
    const team = newWorkspace();
    const event = dmMessage("count to 20");
    await send(team, event);
    await expectCountedTo20(event.channel, event.ts);
  });

  it("in an assistant thread: the user's message is answered in that thread", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const event = dmMessage("count to 20", { threadTs });
    await send(team, event);
    await expectCountedTo20(event.channel, threadTs);
  });

  it("the stop button ends the answer: the model aborted, no append after the stop, the session active", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const event = appMention({ text: "<@U0000BOT> count to 500", threadTs });
    const channel = String(event.channel);
    await send(team, event);
    // The stream opens with the count's task; the numbers follow.
    await slack().waitFor("chat.appendStream", (call) => typeof call.body.markdown_text === "string");
    const [streaming] = slack().messagesIn(channel, threadTs);
    expect(streaming!.streaming).toBe(true);

    await send(team, agentSessionStopped({ channel, threadTs }, [streaming!.ts]));
    const acked = slack().calls.length;
    await sessionActive();
    await slack().waitFor("chat.stopStream");
    // Stopped (an outcome, not parked); its attempt (the model aborted) let go of it at once, not when 500 was reached.
    expect(await runLetGo(team, 1000)).toMatchObject({ status: "stopped", last_error: "stopped by user", claim_token: null });

    const after = slack()
      .calls.slice(acked)
      .filter((call) => call.method === "chat.appendStream" || call.method === "chat.startStream");
    expect(after).toEqual([]);
    const [answer, ...others] = slack().messagesIn(channel, threadTs);
    expect(others).toEqual([]);
    expect(answer).toMatchObject({ state: "stopped", streaming: false });
    // Cut short where the stop met it: the numbers so far, in order, far from 500.
    const numbers = answer!.text.split(" ");
    expect(answer!.text).toBe(counted(numbers.length));
    expect(numbers.length).toBeLessThan(500);
    expect(answer!.blocks).toBeUndefined();
  });

  it("the stop's signal ends the model at once, long before its next flush would have failed", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const mention = appMention({ text: "<@U0000BOT> count to 500", threadTs });
    const channel = String(mention.channel);
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      // 100 ms a number: flushes over 2 s apart, so only the aborted model ends the run within 1 s.
      const settings = { AGENT_SESSIONS: "true", DEMO_COUNT_INTERVAL_MS: "100" };
      const shard = await workspaceShardIn(state, { app: exampleApp, settings });
      const ended = latch<number>();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "stopped" && event.key.includes(":run:")) ended.open(Date.now());
      });
      await shard.recording.ingest(eventDelivery(team, mention));
      await slack().waitFor("chat.startStream", undefined, 10_000);
      await firstFlushCheckpointed(state);
      const [streaming] = slack().messagesIn(channel, threadTs);
      const stoppedAt = Date.now();
      await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs }, [streaming!.ts])));
      const endedAt = await ended.opened;
      await sessionActive();
      // The stop's and the stopped run's each close the message: the second finds it stopped and keeps its text.
      // (This channel's: an earlier test's shard may still close its own message, whose ts can be the same.)
      const stops = () =>
        slack()
          .callsTo("chat.stopStream")
          .filter((call) => call.body.channel === channel && call.body.ts === streaming!.ts);
      await vi.waitFor(() => expect(stops().length).toBeGreaterThanOrEqual(2));
      return { took: endedAt - stoppedAt, answer: slack().message(channel, streaming!.ts) };
    });
    expect(outcome.took).toBeLessThan(1000);
    expect(
      slack()
        .callsTo("chat.update")
        .filter((call) => call.body.channel === channel),
    ).toEqual([]);
    expect(outcome.answer).toMatchObject({ state: "stopped", text: counted(outcome.answer!.text.split(" ").length) });
  });

  it("an assistant thread opens with a greeting and suggested prompts; other questions get the word count", async () => {
    const team = newWorkspace();
    const { channel, ts: threadTs } = dmMessage("");
    const assistant_thread = { user_id: "U0000USER", channel_id: channel, thread_ts: threadTs, context: {} };
    await send(team, { type: "assistant_thread_started", assistant_thread, event_ts: messageTs() });
    const prompts = await slack().waitFor("assistant.threads.setSuggestedPrompts");
    expect(prompts.body).toMatchObject({ channel_id: channel, thread_ts: threadTs, prompts: [{ message: "count to 30" }, {}] });
    await send(team, dmMessage("what is up", { channel, threadTs }));
    await slack().waitFor("chat.postMessage", (call) => String(call.body.text).startsWith("You said"));
    expect(
      slack()
        .messagesIn(channel, threadTs)
        .map((message) => message.text),
    ).toEqual(["Hi! I count, one number at a time. Ask me to “count to 30”.", 'You said 3 words: "what is up".']);
    expect(slack().callsTo("chat.startStream")).toEqual([]);
  });

  it("a feedback click is thanked, to the user who clicked, in the answer's thread", async () => {
    const team = newWorkspace();
    const threadTs = messageTs();
    const clicked = blockActions({ teamId: team, actionId: "answer_feedback", channel: "C42", messageTs: messageTs() });
    // As Slack sends a feedback button: the element's type, the chosen button's value, the answer in its thread.
    const action = { type: "feedback_buttons", action_id: "answer_feedback", block_id: "b1", value: "good", action_ts: threadTs };
    const message = { ...(clicked.message as Record<string, unknown>), thread_ts: threadTs };
    const payload = { ...clicked, message, actions: [action] };
    const response = await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    const thanks = await slack().waitFor("chat.postEphemeral");
    expect(thanks.body).toEqual({ channel: "C42", user: "U0000USER", thread_ts: threadTs, text: "Thanks, glad it helped!" });
  });
});
