import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { Step } from "../../src/app/contract/slackApp";
import type { SlackWebClient } from "../../src/slack/client";
import { channelMessage, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { controlClock, sweepUntilQuiet } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { outboxRows } from "../support/outboxRows";
import { HANDLER_MAX_ATTEMPTS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

async function message(team: string, text: string, retryNum?: number): Promise<Response> {
  const envelope = eventCallback(channelMessage({ user: "U0000USER", text }), { teamId: team });
  return deliver(await signedEvent(envelope, signedBy(retryNum === undefined ? {} : { retryNum })));
}

const posted = async () => (await slack().waitForCall((call) => call.method === "chat.postMessage")).body;

describe("a run's Bolt arguments", () => {
  it("a RegExp listener gets its match as context.matches", async () => {
    expect((await message(newWorkspace(), "count to 5")).status).toBe(200);
    expect(await posted()).toMatchObject({ text: "counted to 5" });
  });

  it("a message its pattern does not match runs nothing", async () => {
    const team = newWorkspace();
    expect((await message(team, "count to five")).status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
    expect(slack().calls.filter((call) => call.method === "chat.postMessage")).toEqual([]);
  });

  it("a string pattern matches a message that contains it", async () => {
    expect((await message(newWorkspace(), "well, ping me later")).status).toBe(200);
    expect(await posted()).toMatchObject({ text: "pong" });
  });

  it("context has the team, the bot user, the acting user and Slack's retry headers", async () => {
    const team = newWorkspace();
    expect((await message(team, "context please", 1)).status).toBe(200);
    expect(await posted()).toMatchObject({
      text: `team=${team} enterprise=undefined bot=U0000BOT user=U0000USER retry=1 http_timeout`,
    });
  });

  it("env holds the Worker's bindings", async () => {
    expect((await message(newWorkspace(), "env please")).status).toBe(200);
    expect(await posted()).toMatchObject({ text: "1000" });
  });

  it("ack() in a run, as Bolt code calls it, does nothing", async () => {
    expect((await message(newWorkspace(), "ack plain")).status).toBe(200);
    expect(await posted()).toMatchObject({ text: "acked" });
  });

  it("ack(body) in a run is parked at once, naming the ack phase", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    expect((await message(team, "ack with body")).status).toBe(200);
    await sweepUntilQuiet(shardStub(team), clock, HANDLER_MAX_ATTEMPTS + 2, 60_000);
    const [row] = await outboxRows(shardStub(team));
    expect(row).toMatchObject({ status: "parked", attempts: 1 });
    expect(row!.last_error).toContain('handler "message:ack with body": ack(body) in run comes too late');
    expect(row!.last_error).toContain("({ ack: ({ … }) => body, run })");
  });

  it("logger writes JSON lines with the delivery's keys", async () => {
    const app = new App().message("hello", async ({ logger }) => logger.info("greeted", { who: "U1" }));
    const inbound = {
      kind: "event" as const,
      dedupeKey: "Ev0001",
      workspace: "T1",
      isEnterpriseInstall: false,
      type: "message",
      payload: { event: { type: "message", text: "hello", user: "U1", channel: "C1", ts: "1.1" } },
    };
    const lines = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const step: Step = async (_name, fn) => await fn();
      const tools = { client: {} as SlackWebClient, step, attempt: 1, key: "d:Ev0001:run" };
      await app.run({ type: "run", listener: "message:hello", inbound }, tools);
      expect(lines.mock.calls.map(([line]) => JSON.parse(String(line)))).toEqual([
        {
          level: "info",
          msg: "greeted",
          who: "U1",
          event_id: "Ev0001",
          dedupe_key: "Ev0001",
          workspace: "T1",
          key: "d:Ev0001:run",
          listener: "message:hello",
        },
      ]);
    } finally {
      lines.mockRestore();
    }
  });
});
