import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// The public test kit only, as a user's test imports it (`slack-durable-coordinator/testing`).
import { FakeSlack, runShardAlarm, SlackSimulator, TestClock, waitUntilSettled } from "../../src/testing";

// Issue 46, point 6: the kit's held clock and the demo's pacing (SLACK_PACING, on by default). A
// streamed answer paces its appends by the clock; with the kit's TestClock holding it, a wait for a
// turn used to wait in real time for a time the held clock never reached, and runShardAlarm never
// returned. And a durable wait's question is answered by clicking its button: FakeSlack finds the
// question, SlackSimulator sends the click with the block_id the wait checks (the demo asks before
// counting past 500, src/example/agent.ts) — only the asker's click answers it (issue 41).

let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;
let clock: TestClock;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
  clock = new TestClock();
});
afterEach(() => {
  clock.restore();
  vi.restoreAllMocks();
});

const counted = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");
const texts = (channel: string, thread_ts: string) => slack.messagesIn(channel, thread_ts).map((message) => message.text);

async function ask(channel: string, thread_ts: string, n: number) {
  const mention = await simulate.appMention({ channel, thread_ts, text: `<@U0000BOT> count to ${n}` });
  expect((await exports.default.fetch(mention)).status).toBe(200);
  return slack.question({ channel, thread_ts });
}

async function click(request: Promise<Request>) {
  expect((await exports.default.fetch(await request)).status).toBe(200);
  // The click made the run due now: the shard's alarm runs it.
  await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
  expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toMatchObject({ pending: 0, parked: 0 });
}

describe("the kit's TestClock and pacing agree (issue 46)", () => {
  it("a streamed answer after a 500 on chat.appendStream completes, paced, under runShardAlarm", async () => {
    slack.failNext("chat.appendStream", { status: 500 });
    const thread_ts = "1700000000.000100";
    const mention = await simulate.appMention({ channel: "C0PACED", thread_ts, text: "<@U0000BOT> count to 300" });
    expect((await exports.default.fetch(mention)).status).toBe(200);
    await slack.waitFor("chat.appendStream"); // the failed attempt
    for (let round = 0; round < 4 && slack.callsTo("chat.stopStream").length < 2; round++) {
      clock.advance(15_000);
      expect(await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm })).toBe(true);
    }
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toMatchObject({ pending: 0, parked: 0 });
    // The attempt recovered (app/streams/replyMessages.ts) and streamed the whole count, its appends
    // paced (Tier 4: one every 0.6 s, no burst): a third append's turn lies over a second ahead, so
    // the held clock was moved to it. The count goes on in a new message after the failed append's.
    const appends = slack.callsTo("chat.appendStream");
    expect(appends[0]!.outcome).toContain("500");
    expect(appends.slice(1).every((call) => call.outcome === "ok")).toBe(true);
    expect(appends.length).toBeGreaterThan(3);
    const messages = slack.messagesIn("C0PACED", thread_ts).filter((message) => message.ts !== thread_ts);
    expect(messages.map((message) => message.text).join("")).toBe(counted(300));
    expect(messages.filter((message) => message.streaming)).toEqual([]);
  });
});

describe("simulate.click(question, value): a wait answered by its button (issue 46)", () => {
  it("no: the run goes on with the answer, one short message and no count", async () => {
    const question = await ask("C0CLICK", "1700000000.000100", 1000);
    expect(question).toMatchObject({ channel: "C0CLICK", thread_ts: "1700000000.000100" });
    expect(question.text).toBe("Counting to 1000 takes 50 seconds. Shall I?");
    await click(simulate.click(question, "no"));
    expect(texts("C0CLICK", "1700000000.000100")).toEqual([question.text, "All right, I will not count."]);
    expect(slack.callsTo("chat.appendStream")).toEqual([]);
  });

  it("yes, by the button's action_id and value: the count streams in that thread, paced, under the held clock", async () => {
    const question = await ask("C0CLICK", "1700000000.000200", 600);
    await click(simulate.click(question, { action_id: "count_confirm", value: "yes" }));
    expect(texts("C0CLICK", "1700000000.000200")).toEqual([question.text, counted(600)]);
  });

  it("by someone else: told whose question it is, nothing counted; the asker's own click then answers (issue 41)", async () => {
    // The demo's confirm takes waitForAction's default `from`, the asker (the mention's U0000USER).
    const question = await ask("C0CLICK", "1700000000.000300", 1000);
    expect((await exports.default.fetch(await simulate.click(question, "yes", { user: "U0000STRANGER" }))).status).toBe(200);
    await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
    expect(slack.callsTo("chat.postEphemeral").map((call) => ({ user: call.body.user, text: call.body.text }))).toEqual([
      { user: "U0000STRANGER", text: "This question is for <@U0000USER>." },
    ]);
    expect(texts("C0CLICK", "1700000000.000300")).toEqual([question.text]);
    expect(slack.callsTo("chat.startStream")).toEqual([]);
    await click(simulate.click(question, "no", { user: "U0000USER" }));
    expect(texts("C0CLICK", "1700000000.000300")).toEqual([question.text, "All right, I will not count."]);
  });
});
