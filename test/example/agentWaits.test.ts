import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { WAIT_ENDED_TEXT } from "../../src/app/waits";
import { CONFIRM_TIMEOUT_MS } from "../../src/example/agent";
import { appMention, blockActions, eventCallback, messageTs, signedEvent, signedInteraction } from "../../src/testing/deliveries";
import { controlClock, untilNoAttemptOut } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// The demo's durable waits (src/example/agent.ts, reminders.ts), end to end through the Worker:
// "count to N" over 500 asks first with buttons and waits for the click; "remind me in S seconds
// to X" sleeps, then reminds. Time is the test's: the shard's alarm runs when the test says.

const slack = useFakeSlack();
const counted = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");

async function mention(team: string, text: string) {
  const threadTs = messageTs();
  const event = appMention({ text: `<@U0000BOT> ${text}`, threadTs });
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()));
  expect(response.status).toBe(200);
  return { channel: String(event.channel), threadTs };
}

/** The question the demo posted, and a click on its `value` button as Slack sends it. */
async function clickOn(team: string, value: "yes" | "no", user = "U0000USER") {
  const question = await slack().waitFor("chat.postMessage", (call) => Array.isArray(call.body.blocks));
  const { channel, thread_ts } = question.body as { channel: string; thread_ts: string };
  const [asked] = slack().messagesIn(channel, thread_ts);
  const actions = (
    question.body.blocks as Array<{ type: string; block_id: string; elements: Array<Record<string, string>> }>
  ).find((block) => block.type === "actions")!;
  const button = actions.elements.find((element) => element.value === value)!;
  const payload = {
    ...blockActions({ teamId: team, actionId: button.action_id!, channel, messageTs: asked!.ts }),
    user: { id: user, team_id: team },
    container: { type: "message", message_ts: asked!.ts, channel_id: channel, thread_ts },
    message: { type: "message", ts: asked!.ts, thread_ts, text: asked!.text },
    actions: [{ type: "button", action_id: button.action_id, block_id: actions.block_id, value, action_ts: messageTs() }],
  };
  const response = await deliver(await signedInteraction(payload, signedBy()), "/slack/interactivity");
  expect(response.status).toBe(200);
  return { question: question.body, actions };
}

const texts = (channel: string, threadTs: string) =>
  slack()
    .messagesIn(channel, threadTs)
    .map((message) => message.text);

describe("the demo agent waits durably", () => {
  it("count to 501 asks first, with count_confirm buttons; yes counts in that thread, exactly", async () => {
    // Real time here: the streamed count paces its appends by the clock.
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "count to 501");
    const { question, actions } = await clickOn(team, "yes");
    expect(question).toMatchObject({ channel, thread_ts: threadTs, text: "Counting to 501 takes 26 seconds. Shall I?" });
    expect(actions.elements.map((element) => [element.action_id, element.value])).toEqual([
      ["count_confirm", "yes"],
      ["count_confirm", "no"],
    ]);
    // The click made the run due now; the shard's alarm, set for now, runs it. The count's appends are
    // paced in real time (~4.3 s on an idle machine): the wait allows for a busy one.
    await slack().waitFor("chat.stopStream", undefined, 15_000);
    const messages = slack().messagesIn(channel, threadTs);
    expect(messages.map((message) => message.text)).toEqual([question.text, counted(501)]);
  }, 30_000);

  it("no: one short message, no count; a click after that is told the question ended", async () => {
    controlClock();
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "count to 1000");
    await clickOn(team, "no");
    await runDurableObjectAlarm(shardStub(team));
    await slack().waitFor("chat.stopStream");
    expect(texts(channel, threadTs)).toEqual(["Counting to 1000 takes 50 seconds. Shall I?", "All right, I will not count."]);
    await clickOn(team, "yes", "U0000LATE");
    await runDurableObjectAlarm(shardStub(team));
    const told = await slack().waitFor("chat.postEphemeral");
    expect(told.body).toMatchObject({ channel, user: "U0000LATE", thread_ts: threadTs, text: WAIT_ENDED_TEXT });
    expect(slack().callsTo("chat.startStream")).toHaveLength(1);
  });

  it("no answer within DEMO_CONFIRM_TIMEOUT_MS (10 minutes by default): one short message, no count", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "count to 2000");
    await slack().waitFor("chat.postMessage");
    await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "suspended");
    clock.advance(CONFIRM_TIMEOUT_MS - 1_000);
    await runDurableObjectAlarm(shardStub(team));
    expect(texts(channel, threadTs)).toHaveLength(1);
    clock.advance(1_000);
    await runDurableObjectAlarm(shardStub(team));
    await slack().waitFor("chat.stopStream");
    expect(texts(channel, threadTs)).toEqual(["Counting to 2000 takes 100 seconds. Shall I?", "No answer, so I did not count."]);
  });

  it("over 2000 is refused in a short answer, without asking", async () => {
    controlClock();
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "count to 2001");
    await slack().waitFor("chat.stopStream");
    expect(texts(channel, threadTs)).toEqual(["I count from 1 to 2000, one number at a time."]);
    expect(slack().callsTo("chat.postMessage")).toEqual([]);
  });

  it("remind me in 90 seconds to stretch: nothing before, then one message in the thread with it", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "remind me in 90 seconds to stretch my legs");
    await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    // The run has settled into its sleep (its answer came back): not still out when the clock moves.
    await untilNoAttemptOut(shardStub(team), clock.now());
    clock.advance(89_000);
    await runDurableObjectAlarm(shardStub(team));
    expect(texts(channel, threadTs)).toEqual([]);
    clock.advance(1_000);
    await runDurableObjectAlarm(shardStub(team));
    await slack().waitFor("chat.postMessage");
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    expect(texts(channel, threadTs)).toEqual(["Reminder: stretch my legs"]);
  });

  it("a day-long reminder never blocks its thread: another user's count to 5 there is answered at once, the reminder after the day", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const { channel, threadTs } = await mention(team, "remind me in 86400 seconds to stretch my legs");
    await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    await untilNoAttemptOut(shardStub(team), clock.now());
    // Another member of the channel, in the same thread, a minute later: its turn is not held for the day.
    clock.advance(60_000);
    const count = appMention({ text: "<@U0000BOT> count to 5", threadTs, channel, user: "U0000OTHER" });
    expect((await deliver(await signedEvent(eventCallback(count, { teamId: team }), signedBy()))).status).toBe(200);
    // Slack's pace in the thread's channel puts the stream's calls a second apart: time passes by the second.
    for (let second = 0; second < 10 && slack().callsTo("chat.stopStream").length === 0; second++) {
      await untilNoAttemptOut(shardStub(team), clock.now());
      clock.advance(1_000);
      await runDurableObjectAlarm(shardStub(team));
    }
    await slack().waitFor("chat.stopStream");
    expect(texts(channel, threadTs)).toEqual([counted(5)]);
    await untilNoAttemptOut(shardStub(team), clock.now());
    clock.advance(86_400_000);
    await runDurableObjectAlarm(shardStub(team));
    await slack().waitFor("chat.postMessage");
    clock.advance(60_000);
    await runDurableObjectAlarm(shardStub(team));
    expect(texts(channel, threadTs)).toEqual([counted(5), "Reminder: stretch my legs"]);
  });
});
