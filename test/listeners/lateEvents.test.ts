import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, type MockInstance, vi } from "vitest";
import { parseEventsApi } from "../../src/inbound/parseEventsApi";
import { recordSettings } from "../../src/settings";
import { appMention, channelMessage, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { waitUntilSettled } from "../../src/testing/shardSettled";
import { controlClock } from "../support/clock";
import { deliver, newWorkspace, shardStub, signedBy, storedFor } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const HOUR = 3_600_000;
/** One receipt generation: RECEIPT_RETENTION_HOURS as the shards under test read it (24 h). */
const RETENTION_MS = recordSettings(env).receiptRetentionMs;
const NOTHING_STORED = { receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } };

/** `event` in its envelope, as Slack sent it `ageMs` ago (its event_time). */
function sentAgo(team: string, event: Record<string, unknown>, ageMs: number): Record<string, unknown> {
  return { ...eventCallback(event, { teamId: team }), event_time: Math.floor((Date.now() - ageMs) / 1000) };
}

/** The JSON lines logged while `send` runs, of the message `msg`; only the console is spied on (the fake Slack stays). */
async function linesOf(msg: string, send: () => Promise<Response>) {
  const written: string[] = [];
  const spies: MockInstance[] = (["log", "warn", "error"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => void written.push(String(line))),
  );
  try {
    const response = await send();
    const lines = written
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === msg);
    return { status: response.status, lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("late events: acked and logged, not answered hours late", () => {
  it("a mention Slack sends two hours late → 200, nothing stored or sent, one warn line with its key, age and listener", async () => {
    const team = newWorkspace();
    const envelope = sentAgo(team, appMention(), 2 * HOUR);
    const { status, lines } = await linesOf("late event not answered", async () =>
      deliver(await signedEvent(envelope, signedBy())),
    );
    expect(status).toBe(200);
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        dedupeKey: envelope.event_id,
        type: "app_mention",
        listener: "event:app_mention",
        eventAgeMs: expect.any(Number),
        maxEventAgeMs: HOUR,
      }),
    ]);
    expect(Math.abs(Number(lines[0]!.eventAgeMs) - 2 * HOUR)).toBeLessThan(2_000); // event_time has whole seconds
    expect(await storedFor(team)).toEqual(NOTHING_STORED);
    expect(slack().calls).toEqual([]);

    // Within the hour, the same mention is answered as ever.
    const recent = sentAgo(team, appMention(), 50 * 60_000);
    expect((await deliver(await signedEvent(recent, signedBy()))).status).toBe(200);
    const reply = await slack().waitForCall((call) => call.method === "chat.postMessage");
    expect(reply.body).toMatchObject({ text: "reply", thread_ts: (recent.event as { ts: string }).ts });
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("the `slack request` line says why: ignored: late event", async () => {
    const team = newWorkspace();
    const envelope = sentAgo(team, appMention(), 2 * HOUR);
    const { lines } = await linesOf("slack request", async () => deliver(await signedEvent(envelope, signedBy())));
    expect(lines).toEqual([
      expect.objectContaining({ status: 200, outcome: "ignored: late event", dedupeKey: envelope.event_id }),
    ]);
  });

  it("Slack's retry after the receipt window (its receipt pruned) is not answered a second time", async () => {
    const clock = controlClock();
    const team = newWorkspace();
    const envelope = eventCallback(appMention(), { teamId: team });
    expect((await deliver(await signedEvent(envelope, signedBy()))).status).toBe(200);
    await slack().waitForCall((call) => call.method === "chat.postMessage");
    expect(await waitUntilSettled({ shard: env.SHARD, workspace: team })).toEqual({ pending: 0, parked: 0, stopped: 0 });

    // Two generations on, the shard's alarm has dropped the original's receipt: nothing dedupes a retry any more.
    clock.advance(2 * RETENTION_MS + 60_000);
    await runDurableObjectAlarm(shardStub(team));
    expect(await storedFor(team)).toEqual(NOTHING_STORED);

    const retry = await signedEvent(envelope, signedBy({ retryNum: 3, retryReason: "http_timeout" }));
    const { status, lines } = await linesOf("late event not answered", () => deliver(retry));
    expect(status).toBe(200);
    expect(lines).toEqual([
      expect.objectContaining({ dedupeKey: envelope.event_id, retryNum: 3, listener: "event:app_mention", maxEventAgeMs: HOUR }),
    ]);
    expect(Number(lines[0]!.eventAgeMs)).toBeGreaterThan(2 * RETENTION_MS);
    expect(await storedFor(team)).toEqual(NOTHING_STORED);
    expect(slack().callsTo("chat.postMessage")).toHaveLength(1);
  });

  it("a listener that opts in (maxEventAgeMs: Infinity) answers a day-old message; the default listener it also matches does not", async () => {
    const team = newWorkspace();
    const envelope = sentAgo(team, channelMessage({ text: "replay me ping" }), 25 * HOUR);
    const { status, lines } = await linesOf("late event not answered", async () =>
      deliver(await signedEvent(envelope, signedBy({ retryNum: 1, retryReason: "http_error" }))),
    );
    expect(status).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ dedupeKey: envelope.event_id, listener: "message:ping" })]);
    const answer = await slack().waitForCall((call) => call.method === "chat.postMessage");
    expect(answer.body).toMatchObject({ text: "answered late" });
    expect(
      slack()
        .callsTo("chat.postMessage")
        .map((call) => call.body.text),
    ).toEqual(["answered late"]);
  });

  it("the shard, which plans again as the authority, ignores a late delivery handed to it too", async () => {
    const team = newWorkspace();
    const parsed = parseEventsApi(JSON.stringify(sentAgo(team, appMention(), 3 * HOUR)));
    if (parsed.kind !== "inbound") throw new Error(parsed.kind);
    const result = await shardStub(team).ingest({ ...parsed.inbound, receivedAt: Date.now() });
    expect(result).toEqual({ verdict: "ignored", enqueued: 0 });
    expect(await storedFor(team)).toEqual(NOTHING_STORED);
  });
});
