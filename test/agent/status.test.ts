import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { STATUS_KEEPALIVE_MS } from "../../src/app/run/runStatus";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { eventDelivery } from "../support/inboundOf";
import { latch } from "../support/latch";
import { namedPost } from "../support/namedPost";
import { workspaceShardIn } from "../support/shardIn";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

afterEach(() => {
  vi.useRealTimers();
});

/** A user's message to the agent, the root of its own conversation. */
function question(team: string, text: string) {
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text, ts }));
  return { inbound, channel: inbound.conversation!.channel, ts };
}

const statusCalls = () => slack().callsTo("assistant.threads.setStatus");
const sessionStatuses = () =>
  slack()
    .callsTo("agents.sessions.setStatus")
    .map((call) => call.body.status);

describe("a run's status", () => {
  it("is sent again before Slack's 2 minutes while the run works, and cleared when it ends", async () => {
    controlClock();
    // Only the intervals are the test's: the keep-alive (and lease renewals) fire when it says.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const team = newWorkspace();
    const working = latch();
    const answered = latch();
    const status = { status: "is thinking…", loading_messages: ["Reading the thread", "Writing"] };
    const app = new App().message("think", async ({ setStatus }) => {
      await setStatus(status);
      working.open();
      await answered.opened;
    });
    const { inbound, channel, ts } = question(team, "think hard");
    const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      const delivered = latch();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "delivered") delivered.open();
      });
      await shard.recording.ingest(inbound);
      await working.opened;
      const [first] = statusCalls();
      const nextAfter = (seen: number) =>
        slack().waitForCall((call) => call.method === "assistant.threads.setStatus" && statusCalls().indexOf(call) >= seen);
      vi.advanceTimersByTime(STATUS_KEEPALIVE_MS - 1);
      const beforeDue = statusCalls().length;
      vi.advanceTimersByTime(1);
      const second = await nextAfter(1);
      vi.advanceTimersByTime(STATUS_KEEPALIVE_MS);
      const third = await nextAfter(2);
      answered.open();
      await delivered.opened;
      const sentByTheEnd = statusCalls().length;
      vi.advanceTimersByTime(5 * STATUS_KEEPALIVE_MS);
      return { first, beforeDue, second, third, sentByTheEnd, sentLater: statusCalls().length };
    });
    const body = { channel_id: channel, thread_ts: ts, ...status };
    expect(STATUS_KEEPALIVE_MS).toBeLessThan(120_000);
    expect(outcome.first?.body).toEqual(body);
    expect(outcome.beforeDue).toBe(1);
    expect(outcome.second.body).toEqual(body);
    expect(outcome.third.body).toEqual(body);
    // Cleared once the run returned, and never sent again.
    expect(statusCalls().at(-1)?.body).toEqual({ channel_id: channel, thread_ts: ts, status: "" });
    expect(outcome.sentByTheEnd).toBe(4);
    expect(outcome.sentLater).toBe(4);
  });

  it("in an agent session (AGENT_SESSIONS) marks the session processing while the run works, active when done", async () => {
    controlClock();
    const team = newWorkspace();
    const seenWhileWorking: unknown[] = [];
    const app = new App().message("hello", async ({ say }) => {
      seenWhileWorking.push(...sessionStatuses());
      await say("hi");
    });
    const { inbound, channel, ts } = question(team, "hello agent");
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true" } });
      await shard.recording.ingest(inbound);
      await slack().waitFor("agents.sessions.setStatus", (call) => call.body.status === "active");
    });
    expect(seenWhileWorking).toEqual(["processing"]);
    expect(
      slack()
        .callsTo("agents.sessions.setStatus")
        .map((call) => call.body),
    ).toEqual([
      // The user whose message started the turn initiates the session (Slack uses it when this call creates it).
      { channel_id: channel, thread_ts: ts, status: "processing", initiator_user_id: "U0000USER" },
      { channel_id: channel, thread_ts: ts, status: "active" },
    ]);
  });

  it("outside agent sessions no session is touched", async () => {
    controlClock();
    const team = newWorkspace();
    const app = new App().message("hello", async ({ say }) => {
      await say("hi");
    });
    const { inbound } = question(team, "hello app");
    await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app });
      await shard.recording.ingest(inbound);
      await slack().waitFor("chat.postMessage");
    });
    expect(sessionStatuses()).toEqual([]);
  });
});

describe("a run finally parked in an agent session", () => {
  async function parkIn(settings: Record<string, string>) {
    const clock = controlClock();
    const team = newWorkspace();
    const app = new App()
      .message("broken", async () => {
        throw new TypeError("the model is gone");
      })
      // app.error's run works for no user: it leaves the session alone.
      .error(async () => {});
    const { inbound, channel, ts } = question(team, "broken answer");
    const parked = await runInDurableObject(shardStub(team), async (_, state) => {
      const shard = await workspaceShardIn(state, { app, settings: { AGENT_SESSIONS: "true", ...settings } });
      const settled = latch<string>();
      shard.delivery.events.subscribe((event) => {
        if (event.type === "parked") settled.open(event.reason);
        if (event.type === "retried") settled.open("retried");
      });
      await shard.recording.ingest(inbound);
      await settled.opened;
      // Each sweep performs what is due and awaits it: the retries, the parking, its follow-ups.
      for (let i = 0; i < HANDLER_MAX_ATTEMPTS + 2; i++) {
        clock.advance(60_000);
        await shard.delivery.sweep(Date.now());
      }
      return shard.operations.listParked();
    });
    return { parked, channel, ts };
  }

  it("tells the user in the thread (once retried, once parked) and moves the session out of processing", async () => {
    const { parked, channel, ts } = await parkIn({});
    expect(parked).toHaveLength(1);
    expect(parked[0]!.last_error).toContain("the model is gone");
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body),
    ).toEqual([
      {
        channel,
        thread_ts: ts,
        text: "Sorry, this is taking longer than it should: something went wrong, and I am trying again.",
        metadata: namedPost(),
      },
      { channel, thread_ts: ts, text: "Sorry, something went wrong and I could not finish this.", metadata: namedPost() },
    ]);
    expect(sessionStatuses().at(-1)).toBe("active");
    expect(sessionStatuses().filter((status) => status === "processing")).toHaveLength(HANDLER_MAX_ATTEMPTS);
  });

  it("says RUN_RETRYING_TEXT and RUN_PARKED_TEXT instead; empty, it says nothing and still ends the session's processing", async () => {
    await parkIn({ RUN_RETRYING_TEXT: "Trying again.", RUN_PARKED_TEXT: "The agent gave up: ask again." });
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.text),
    ).toEqual(["Trying again.", "The agent gave up: ask again."]);
    const before = slack().calls.length;
    await parkIn({ RUN_RETRYING_TEXT: "", RUN_PARKED_TEXT: "" });
    const later = slack().calls.slice(before);
    expect(later.filter((call) => call.method === "chat.postMessage")).toEqual([]);
    expect(later.filter((call) => call.method === "agents.sessions.setStatus").at(-1)?.body.status).toBe("active");
  });
});
