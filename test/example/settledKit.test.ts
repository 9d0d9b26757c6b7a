import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// The public test kit only, as a user's test imports it (`slack-durable-coordinator/testing`).
import { FakeSlack, SlackSimulator, waitUntilSettled } from "../../src/testing";

let slack: FakeSlack;
let simulate: SlackSimulator;
let team: string;

beforeEach(() => {
  slack = new FakeSlack(new URL(env.SLACK_API_URL).origin);
  vi.spyOn(globalThis, "fetch").mockImplementation(slack.fetch);
  team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  simulate = new SlackSimulator({ signingSecret: env.SLACK_SIGNING_SECRET, teamId: team });
});
afterEach(() => vi.restoreAllMocks());

describe("waitUntilSettled (issue 31: the kit without leaks between tests)", () => {
  it("once it resolves, the demo agent's run and all it planned are done, and no call comes after", async () => {
    const mention = await simulate.appMention({
      channel: "C0SETTLE",
      thread_ts: "1700000000.000200",
      text: "<@U0000BOT> count to 5",
    });
    expect((await exports.default.fetch(mention)).status).toBe(200);
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toEqual({ pending: 0, parked: 0, stopped: 0 });
    const made = slack.calls.map((call) => call.method);
    // The turn's last calls are in: its stream stopped, and the session back to active.
    expect(made).toContain("chat.stopStream");
    expect(slack.calls.at(-1)).toMatchObject({ method: "agents.sessions.setStatus", body: { status: "active" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slack.calls.map((call) => call.method)).toEqual(made);
  });

  it("a retry waiting for its backoff is named when the wait gives up", async () => {
    slack.fail({ method: "chat.startStream" }, { status: 500 }, 10);
    const mention = await simulate.appMention({
      channel: "C0SETTLE",
      thread_ts: "1700000000.000300",
      text: "<@U0000BOT> count to 5",
    });
    expect((await exports.default.fetch(mention)).status).toBe(200);
    await expect(waitUntilSettled({ shard: env.SHARD, workspace: team, timeoutMs: 300 })).rejects.toThrow(
      /1 effect\(s\) of T.+ still pending after 300 ms — a retry waiting for its backoff/,
    );
    // The shape it recommends is the one that works with pacing on (heldClockKit.test.ts runs it).
    await expect(waitUntilSettled({ shard: env.SHARD, workspace: team, timeoutMs: 0 })).rejects.toThrow(
      "clock.advance(15_000), then await runShardAlarm({ shard, workspace, runDurableObjectAlarm }), until it is sent (pacing stays on: a TestClock is moved to each paced call's turn)",
    );
  });
});
