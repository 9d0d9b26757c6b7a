import { describe, expect, it, vi } from "vitest";
import {
  appMention,
  blockActions,
  channelMessage,
  eventCallback,
  messageTs,
  signedEvent,
  signedForm,
  signedInteraction,
  slashCommandFields,
  viewSubmission,
} from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { namedPost } from "../support/namedPost";
import { outboxRows } from "../support/outboxRows";
import { useFakeSlack } from "../support/useFakeSlack";

// The shipped demo (src/example/app.ts, served by `npm start`) end to end: signed requests in,
// Slack calls out. Runs against the demo Worker, src/index.ts (vitest.config.ts, project "example").

const slack = useFakeSlack();

async function mention(team: string, event = appMention({ text: "<@U0000BOT> what is up" })) {
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()));
  return { response, event };
}

describe("app.event: a mention", () => {
  it("gets a placeholder in its thread at once, then the answer in place, with a button", async () => {
    const team = newWorkspace();
    const { response, event } = await mention(team);
    expect(response.status).toBe(200);
    const update = await slack().waitForCall((c) => c.method === "chat.update");
    const [placeholder] = slack().callsTo("chat.postMessage");
    expect(placeholder!.body).toEqual({
      channel: event.channel,
      thread_ts: event.ts,
      text: "Working on it…",
      metadata: namedPost("placeholder"),
    });
    expect(update.body).toMatchObject({ channel: event.channel, text: 'You said 3 words: "what is up".' });
    expect(update.body.ts).toMatch(/^\d+\.\d+$/);
    expect(JSON.stringify(update.body.blocks)).toContain("answer_helpful");
  });

  it("a run that fails after its first step does not repeat it on retry: one placeholder, updated once", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().fail({ method: "chat.update" }, { status: 500 });
    await mention(team);
    await slack().waitForCall((c) => c.method === "chat.update"); // the failed update
    await sweepUntilQuiet(shardStub(team), clock);
    // The placeholder once, and nothing else: one failure the first retry gets past tells the user
    // nothing (the demo is an agent, whose runs' failure notices are on: delivery/failureNotices.ts).
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((c) => c.body.text),
    ).toEqual(["Working on it…"]);
    expect(
      slack()
        .callsTo("chat.update")
        .map((c) => c.outcome),
    ).toEqual([expect.stringContaining("500"), "ok"]);
    const [failed, retried] = slack().callsTo("chat.update");
    expect(retried!.body.ts).toBe(failed!.body.ts); // the checkpointed placeholder's ts
    expect(await outboxRows(shardStub(team))).toEqual([]);
  });

  it("the same message as `message` and `app_mention` (two event_ids) is answered once", async () => {
    const team = newWorkspace();
    const ts = messageTs();
    const text = "<@U0000BOT> twice?";
    const deliveries = await Promise.all([
      signedEvent(eventCallback(appMention({ ts, text }), { teamId: team }), signedBy()),
      signedEvent(eventCallback(channelMessage({ ts, text }), { teamId: team }), signedBy()),
    ]);
    const responses = await Promise.all(deliveries.map((d) => deliver(d)));
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    await slack().waitForCall((c) => c.method === "chat.update");
    // A twin arriving after the answer was delivered is caught too.
    const late = await deliver(await signedEvent(eventCallback(channelMessage({ ts, text }), { teamId: team }), signedBy()));
    expect(late.status).toBe(200);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
    // The update's answer settles the row: after Slack recorded the call, not with it.
    await vi.waitFor(async () => expect((await storedFor(team)).outbox.pending).toBe(0));
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("messages from bots — other bots or this app itself — are acked and ignored", async () => {
    const team = newWorkspace();
    const fromOtherBot = eventCallback({ ...appMention(), bot_id: "B0000OTHER" }, { teamId: team });
    const fromItself = eventCallback(channelMessage({ user: "U0000BOT", text: "<@U0000BOT> echo" }), {
      teamId: team,
      botUserId: "U0000BOT",
    });
    const botSubtype = eventCallback(channelMessage({ subtype: "bot_message", text: "<@U0000BOT> hi" }), { teamId: team });
    for (const envelope of [fromOtherBot, fromItself, botSubtype]) {
      expect((await deliver(await signedEvent(envelope, signedBy()))).status).toBe(200);
    }
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });
});

describe("app.command", () => {
  it("/echo TEXT answers TEXT on the response_url", async () => {
    const team = newWorkspace();
    const fields = slashCommandFields("/echo", "hello there", { team_id: team, response_url: slack().responseUrl("echo") });
    const response = await deliver(await signedForm(fields, signedBy()), "/slack/commands");
    expect(response.status).toBe(200);
    const call = await slack().waitForCall((c) => c.method === "response_url");
    expect(call.body).toEqual({ response_type: "ephemeral", text: "hello there" });
  });

  it("/feedback acks synchronously with its ephemeral text, then opens the modal with the trigger_id", async () => {
    const team = newWorkspace();
    const fields = slashCommandFields("/feedback", "", { team_id: team });
    const response = await deliver(await signedForm(fields, signedBy()), "/slack/commands");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ response_type: "ephemeral", text: "Opening the feedback form…" });
    const open = await slack().waitForCall((c) => c.method === "views.open");
    expect(open.body).toMatchObject({ trigger_id: fields.trigger_id, view: { callback_id: "feedback_modal" } });
  });

  it("an expired response_url parks the run with the reason instead of retrying it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().fail({ method: "response_url" }, { status: 500 });
    const fields = slashCommandFields("/echo", "late", { team_id: team, response_url: slack().responseUrl("late") });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await slack().waitForCall((c) => c.method === "response_url");
    clock.advance(31 * 60_000);
    await sweepUntilQuiet(shardStub(team), clock);
    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked", last_error: "response_url expired (valid 30 minutes)" });
    expect(slack().callsTo("response_url")).toHaveLength(1);
  });

  it("views.open gets only the immediate attempt: a failed open is parked as an expired trigger", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    slack().fail({ method: "views.open" }, { status: 503 });
    const fields = slashCommandFields("/feedback", "", { team_id: team });
    expect((await deliver(await signedForm(fields, signedBy()), "/slack/commands")).status).toBe(200);
    await slack().waitForCall((c) => c.method === "views.open");
    await sweepUntilQuiet(shardStub(team), clock);
    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked" });
    expect(row!.last_error).toMatch(/^trigger_id expired/);
    expect(slack().callsTo("views.open")).toHaveLength(1);
  });
});

describe("app.action", () => {
  it("a click on the answer's button updates that message", async () => {
    const team = newWorkspace();
    const payload = blockActions({ teamId: team, actionId: "answer_helpful", channel: "C42", messageTs: "1700000000.000200" });
    const response = await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    const update = await slack().waitForCall((c) => c.method === "chat.update");
    expect(update.body).toMatchObject({ channel: "C42", ts: "1700000000.000200", text: "Marked helpful by <@U0000USER>." });
  });

  it("an action no listener handles is acked and ignored", async () => {
    const team = newWorkspace();
    const payload = blockActions({ teamId: team, actionId: "nobody_listens" });
    expect((await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity")).status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });
});

describe("app.view", () => {
  it("an invalid submission gets its field errors synchronously and nothing runs", async () => {
    const team = newWorkspace();
    const payload = viewSubmission({ teamId: team, callbackId: "feedback_modal", values: { feedback: { text: "no" } } });
    const response = await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      response_action: "errors",
      errors: { feedback: "Please write at least 3 characters." },
    });
    expect(await storedFor(team)).toEqual({ receipts: 1, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("a valid submission closes the modal (empty 200) and is processed in run", async () => {
    const team = newWorkspace();
    const payload = viewSubmission({
      teamId: team,
      callbackId: "feedback_modal",
      values: { feedback: { text: "More dark mode" } },
    });
    const response = await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    const thanks = await slack().waitForCall((c) => c.method === "chat.postMessage");
    expect(thanks.body).toEqual({
      channel: "U0000USER",
      text: "Thanks for your feedback: “More dark mode”",
      metadata: namedPost("thank"),
    });
  });
});

describe("app.function: a custom workflow step", () => {
  it("completes with the word count of its text input, with the step's own token", async () => {
    const team = newWorkspace();
    const step = { type: "function_executed", function: { callback_id: "count_words" }, function_execution_id: "Fx0001" };
    const event = { ...step, inputs: { text: "durable steps" }, bot_access_token: "xwfp-demo" };
    expect((await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()))).status).toBe(200);
    const completed = await slack().waitForCall((c) => c.method === "functions.completeSuccess");
    expect(completed.token).toBe("Bearer xwfp-demo");
    expect(completed.body).toEqual({
      function_execution_id: "Fx0001",
      outputs: { summary: 'You said 2 words: "durable steps".' },
    });
  });
});
