import { afterEach, describe, expect, it, vi } from "vitest";
import { type EnteredSpan, recordEnteredSpans } from "../../src/platform/spans";
import { channelMessage, eventCallback, signedEvent, slackId } from "../../src/testing/deliveries";
import { deliver, mentionDelivery, newWorkspace, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();

/** The spans entered in this isolate (local workerd records none: its spans are never `isTraced`). */
function enteredSpans(): EnteredSpan[] {
  const entered: EnteredSpan[] = [];
  recordEnteredSpans((span) => entered.push(span));
  return entered;
}
afterEach(() => recordEnteredSpans(undefined));

/** Delivers a `message` "trace me" (a step, a log line and two Slack calls: test/support/testApp.ts) and waits for its calls. */
async function traceMe(): Promise<{ team: string; eventId: string }> {
  const team = newWorkspace();
  const eventId = slackId("Ev");
  const event = channelMessage({ text: "trace me", channel: "C0TRACE" });
  expect((await deliver(await signedEvent(eventCallback(event, { teamId: team, eventId }), signedBy()))).status).toBe(200);
  await vi.waitFor(() => expect(slack().callsTo("chat.postMessage")).toHaveLength(2));
  return { team, eventId };
}

describe("traces: one delivery's spans", () => {
  it("verify, record, ingest, the attempt, its step and each Slack call, named by event_id, workspace and listener", async () => {
    const entered = enteredSpans();
    const { team, eventId } = await traceMe();

    const mine = entered.filter((span) => span.name === "verify" || span.attributes.event_id === eventId);
    expect(mine.map((span) => span.name)).toEqual(["verify", "record", "ingest", "attempt", "step", "slack.call", "slack.call"]);
    const ids = { event_id: eventId, workspace: team };
    const [, record, ingest, attempt, step, ...calls] = mine;
    expect(record!.attributes).toMatchObject({ ...ids, type: "message" });
    expect(ingest!.attributes).toMatchObject({ ...ids, type: "message" });
    const ofTheRun = { ...ids, listener: expect.stringContaining("trace me"), effect: "run" };
    expect(attempt!.attributes).toMatchObject({ ...ofTheRun, attempt: 1 });
    expect(step!.attributes).toMatchObject({ ...ofTheRun, step: "where" });
    for (const call of calls) expect(call.attributes).toMatchObject({ ...ofTheRun, "slack.method": "chat.postMessage" });
  });

  it("without the runtime's tracing, a span is the plain call: its value, and nothing entered but the hook's record", async () => {
    const entered = enteredSpans();
    const { inSpan, traceWith } = await import("../../src/platform/spans");
    traceWith(undefined);
    try {
      expect(inSpan("plain", { event_id: "Ev1" }, () => 42)).toBe(42);
      await expect(inSpan("later", {}, async () => "done")).resolves.toBe("done");
    } finally {
      traceWith((await import("cloudflare:workers")).tracing);
    }
    expect(entered.map((span) => span.name)).toEqual(["plain", "later"]);
  });
});

/** The runtime's tracing, or a fake of it, with the runtime spans `inSpan` entered counted. */
function countingTracing(active: (() => { isTraced: boolean } | undefined) | undefined) {
  const entered: string[] = [];
  const attributes: Record<string, unknown>[] = [];
  const tracing = {
    enterSpan<T>(name: string, run: (span: { isTraced: boolean; setAttributes(a: Record<string, unknown>): void }) => T): T {
      entered.push(name);
      return run({ isTraced: true, setAttributes: (set) => attributes.push(set) });
    },
    ...(active ? { getActiveSpan: active } : {}),
  };
  return { tracing, entered, attributes };
}

describe("spans cost nothing where nothing is traced (issue 43, point 3)", () => {
  afterEach(async () => (await import("../../src/platform/spans")).traceWith((await import("cloudflare:workers")).tracing));

  it("an invocation its runtime does not sample enters no runtime span; a sampled one, or a runtime that cannot say, enters each", async () => {
    const { inSpan, traceWith } = await import("../../src/platform/spans");
    const entered = enteredSpans();
    const counted = (active: (() => { isTraced: boolean } | undefined) | undefined) => {
      const fake = countingTracing(active);
      traceWith(fake.tracing);
      expect(inSpan("step", { event_id: "Ev1" }, () => 42)).toBe(42);
      return { entered: fake.entered, attributes: fake.attributes };
    };
    expect(counted(() => ({ isTraced: false }))).toEqual({ entered: [], attributes: [] });
    expect(counted(() => ({ isTraced: true }))).toEqual({ entered: ["step"], attributes: [{ event_id: "Ev1" }] });
    expect(counted(undefined)).toEqual({ entered: ["step"], attributes: [{ event_id: "Ev1" }] });
    expect(counted(() => undefined)).toEqual({ entered: ["step"], attributes: [{ event_id: "Ev1" }] });
    // The test hook hears of every span all the same.
    expect(entered.map((span) => span.name)).toEqual(["step", "step", "step", "step"]);
  });

  it("a delivery in local workerd (never sampled) enters none of its seven spans in the runtime", async () => {
    const { traceWith } = await import("../../src/platform/spans");
    const runtime = (await import("cloudflare:workers")).tracing;
    const entered: string[] = [];
    traceWith({
      enterSpan: <T>(name: string, run: (span: unknown) => T) => {
        entered.push(name);
        return runtime.enterSpan(name, run);
      },
      getActiveSpan: () => runtime.getActiveSpan(),
    });
    const told = enteredSpans();
    const { eventId } = await traceMe();
    expect(told.filter((span) => span.name === "verify" || span.attributes.event_id === eventId)).toHaveLength(7);
    expect(entered).toEqual([]);
  });
});

/** The JSON lines the Worker and its shards write from now on (same isolate as the test). */
function loggedLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const keep = (line: unknown) => {
    if (typeof line === "string" && line.startsWith("{")) lines.push(JSON.parse(line) as Record<string, unknown>);
  };
  for (const level of ["log", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(keep);
  return lines;
}

describe("logs: every line of a delivery names its event", () => {
  it("a run's logger line carries event_id, workspace and listener", async () => {
    const lines = loggedLines();
    const { team, eventId } = await traceMe();
    const tracing = lines.find((line) => line.msg === "tracing");
    expect(tracing).toMatchObject({ level: "info", event_id: eventId, workspace: team, channel: "C0TRACE" });
    expect(tracing?.listener).toEqual(expect.stringContaining("trace me"));
  });

  it("the delivery's own lines too: a failed attempt's `effect will be retried` names its event_id", async () => {
    const team = newWorkspace();
    const eventId = slackId("Ev");
    const lines = loggedLines();
    slack().fail({ method: "chat.postMessage" }, { status: 500 });
    const { delivery } = await mentionDelivery(team, { eventId });
    expect((await deliver(delivery)).status).toBe(200);
    await vi.waitFor(() => expect(lines.find((line) => line.msg === "effect will be retried")).toBeDefined());
    expect(lines.find((line) => line.msg === "effect will be retried")).toMatchObject({
      level: "warn",
      event_id: eventId,
      effect: "run",
      attempts: 1,
    });
  });
});
