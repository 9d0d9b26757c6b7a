import { describe, expect, it } from "vitest";
import { FakeSlack } from "../../src/testing";

// The kit's fake reads back what the app posted as Slack does — paged, filtered by time, its
// metadata shown only when asked — and loses answers of calls it applied: what tests of
// uncertain posts (docs/reference/delivery.md, "Uncertain posts") stand on.

const CHANNEL = "C0HISTORY";
const THREAD = "1700000000.000100";

function call(slack: FakeSlack, method: string, body: Record<string, unknown>) {
  return slack.fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers: { authorization: "Bearer xoxb-T1", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function read(slack: FakeSlack, method: string, body: Record<string, unknown>) {
  return (await (await call(slack, method, { channel: CHANNEL, ...body })).json()) as {
    ok: boolean;
    error?: string;
    messages?: Array<{ text: string; ts: string; metadata?: unknown }>;
    has_more?: boolean;
    response_metadata?: { next_cursor: string };
  };
}

describe("FakeSlack reads back what was posted as Slack does", () => {
  it("pages a thread with a cursor, after `oldest`, and shows metadata only with include_all_metadata", async () => {
    const clock = { now: 1_700_000_100_000 };
    const slack = new FakeSlack({ now: () => clock.now }).setHistoryPageLimit(2);
    const metadata = { event_type: "kept", event_payload: { n: 1 } };
    for (const text of ["one", "two", "three"]) {
      await call(slack, "chat.postMessage", { channel: CHANNEL, thread_ts: THREAD, text, metadata: JSON.stringify(metadata) });
      clock.now += 60_000;
    }
    const first = await read(slack, "conversations.replies", { ts: THREAD, limit: 15, include_all_metadata: true });
    expect(first.messages!.map((m) => m.text)).toEqual(["one", "two"]);
    expect(first.messages![0]!.metadata).toEqual(metadata);
    expect(first.has_more).toBe(true);
    const second = await read(slack, "conversations.replies", { ts: THREAD, cursor: first.response_metadata!.next_cursor });
    expect(second.messages!.map((m) => m.text)).toEqual(["three"]);
    expect(second.messages![0]!.metadata).toBeUndefined();
    expect(second.has_more).toBe(false);
    const recent = await read(slack, "conversations.history", { oldest: first.messages![0]!.ts });
    expect(recent.messages!.map((m) => m.text)).toEqual(["three", "two"]);
  });

  it("without the history scopes both reads are refused missing_scope", async () => {
    const slack = new FakeSlack({ historyScopes: false });
    expect(await read(slack, "conversations.history", {})).toMatchObject({ ok: false, error: "missing_scope" });
    slack.setHistoryScopes(true);
    expect(await read(slack, "conversations.replies", { ts: THREAD })).toMatchObject({ ok: true, messages: [] });
  });

  it("a lost answer: Slack posted, and the caller sees a dropped connection, a 500, or nothing", async () => {
    const slack = new FakeSlack()
      .fail({ method: "chat.postMessage" }, { lostAnswer: "reset" })
      .fail({ method: "chat.postMessage" }, { lostAnswer: "serverError" })
      .fail({ method: "chat.postMessage" }, { lostAnswer: "hang" });
    await expect(call(slack, "chat.postMessage", { channel: CHANNEL, text: "reset" })).rejects.toThrow("Network connection lost");
    expect((await call(slack, "chat.postMessage", { channel: CHANNEL, text: "500" })).status).toBe(500);
    const hung = await Promise.race([
      call(slack, "chat.postMessage", { channel: CHANNEL, text: "hang" }),
      new Promise((resolve) => setTimeout(() => resolve("no answer"), 50)),
    ]);
    expect(hung).toBe("no answer");
    expect(slack.messagesIn(CHANNEL).map((m) => m.text)).toEqual(["reset", "500", "hang"]);
    expect(slack.callsTo("chat.postMessage").map((c) => [c.applied, c.status])).toEqual([
      [true, 0],
      [true, 500],
      [true, 0],
    ]);
    // A fault before Slack applied the call leaves nothing posted.
    slack.failNext("chat.postMessage", { status: 500 });
    expect((await call(slack, "chat.postMessage", { channel: CHANNEL, text: "refused" })).status).toBe(500);
    expect(slack.messagesIn(CHANNEL)).toHaveLength(3);
    expect(slack.calls.at(-1)!.applied).toBe(false);
  });
});
