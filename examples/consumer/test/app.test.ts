import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { FakeSlack, runShardAlarm, SlackSimulator } from "slack-durable-coordinator/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  // Every outbound fetch of the Worker goes to the fake, wherever SLACK_API_URL points.
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  // A workspace of its own per test: the shard a test writes to is not another test's.
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(() => vi.restoreAllMocks());

describe("my Slack app", () => {
  it("replies to a mention in its thread, with the bot token", async () => {
    const mention = await simulate.appMention({ channel: "C0HELLO", text: "<@U0000BOT> hi", ts: "1700000000.000100" });
    expect((await exports.default.fetch(mention)).status).toBe(200);

    const reply = await slack.waitFor("chat.postMessage");
    expect(reply.token).toBe(`Bearer ${env.SLACK_BOT_TOKEN}`);
    expect(reply.body).toMatchObject({
      channel: "C0HELLO",
      thread_ts: "1700000000.000100",
      text: "Hi! You said: <@U0000BOT> hi",
    });
  });

  it("posts nothing more when Slack retries the same event", async () => {
    const mention = await simulate.appMention({ channel: "C0RETRY" });
    const { event_id, event } = await mention.clone().json<{ event_id: string; event: Record<string, unknown> }>();
    expect((await exports.default.fetch(mention)).status).toBe(200);
    await slack.waitFor("chat.postMessage");

    // Slack resends an event it thinks was not acked in time: same event_id, X-Slack-Retry-Num: 1.
    const retry = await simulate.event("app_mention", event, { retryNum: 1, eventId: event_id });
    expect((await exports.default.fetch(retry)).status).toBe(200);
    // Whatever the shard still has to do, it does now: there is no second reply.
    await runShardAlarm({ shard: env.SHARD, workspace: team, runDurableObjectAlarm });
    expect(slack.callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("answers /hello on the command's response_url", async () => {
    const command = await simulate.command("/hello", "Ada", { response_url: slack.responseUrl("hello") });
    expect((await exports.default.fetch(command)).status).toBe(200);

    const answer = await slack.waitFor("response_url");
    expect(answer.body).toEqual({ response_type: "ephemeral", text: "Hello, Ada!" });
  });
});
