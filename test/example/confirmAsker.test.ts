import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// The public test kit only, as a user's test imports it (`slack-durable-coordinator/testing`).
import { FakeSlack, runShardAlarm, SlackSimulator, TestClock, waitUntilSettled } from "../../src/testing";

// Issue 41, point 2, through the Worker: the demo asks before counting past 500 (src/example/agent.ts)
// with waitForAction's default `from` — the asker. Another member's "Yes, count" used to start the
// count; now it is refused and the question waits for the asker's own click.

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

/** Sends a signed request to the Worker, then lets the shard's alarm do what it made due. */
async function delivered(request: Promise<Request>) {
  expect((await exports.default.fetch(await request)).status).toBe(200);
  await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
}

describe("the demo's confirm answers only the asker (issue 41)", () => {
  it("a stranger's click is told whose question it is and counts nothing; the asker's own click then answers", async () => {
    const thread_ts = "1700000000.000300";
    await delivered(simulate.appMention({ channel: "C0ASKER", thread_ts, text: "<@U0000BOT> count to 1000", user: "U0000USER" }));
    const question = await slack.question({ channel: "C0ASKER", thread_ts });

    await delivered(simulate.click(question, "yes", { user: "U0000STRANGER" }));
    expect(slack.callsTo("chat.postEphemeral").map((call) => ({ user: call.body.user, text: call.body.text }))).toEqual([
      { user: "U0000STRANGER", text: "This question is for <@U0000USER>." },
    ]);
    expect(slack.messagesIn("C0ASKER", thread_ts).map((message) => message.text)).toEqual([question.text]);
    expect(slack.callsTo("chat.startStream")).toEqual([]);

    await delivered(simulate.click(question, "no"));
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toMatchObject({ pending: 0, parked: 0 });
    expect(slack.messagesIn("C0ASKER", thread_ts).map((message) => message.text)).toEqual([
      question.text,
      "All right, I will not count.",
    ]);
  });
});
