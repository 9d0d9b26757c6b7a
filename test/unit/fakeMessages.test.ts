import { describe, expect, it } from "vitest";
import { FakeSlack } from "../../src/testing";

// The fake's messages are held per channel and by key (src/testing/fakePostedMessages.ts), and a run
// of minutes can forget them (bench/spread.ts): what a test reads back must not change.

async function call(slack: FakeSlack, method: string, body: Record<string, unknown>) {
  const response = await slack.fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers: { authorization: "Bearer xoxb-T1", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { ok: boolean; ts?: string; message?: { text?: string } };
}

describe("FakeSlack's posted messages", () => {
  it("an update, a delete and message() act on the message named by channel and ts, among many", async () => {
    const slack = new FakeSlack();
    const posted: string[] = [];
    for (let i = 0; i < 50; i++)
      posted.push(String((await call(slack, "chat.postMessage", { channel: `C${i % 2}`, text: `n${i}` })).ts));
    expect((await call(slack, "chat.update", { channel: "C0", ts: posted[10], text: "updated" })).message?.text).toBe("updated");
    // The same ts in another channel is another message: it is not found there.
    expect(slack.message("C1", posted[10]!)).toBeUndefined();
    expect(slack.message("C0", posted[10]!)?.text).toBe("updated");
    await call(slack, "chat.delete", { channel: "C0", ts: posted[12] });
    expect(slack.message("C0", posted[12]!)).toBeUndefined();
    expect(slack.messagesIn("C0").map((m) => m.text)).toEqual(
      posted.flatMap((_, i) => (i % 2 === 0 && i !== 12 ? [i === 10 ? "updated" : `n${i}`] : [])),
    );
    expect(slack.messagesIn("C1")).toHaveLength(25);
  });

  it("forgetMessages empties what reads show; an update of a forgotten post is still answered ok, and no ts is handed out twice", async () => {
    const slack = new FakeSlack();
    const first = await call(slack, "chat.postMessage", { channel: "C1", thread_ts: "1.000001", text: "a" });
    slack.forgetMessages();
    expect(slack.messagesIn("C1")).toEqual([]);
    expect(slack.message("C1", String(first.ts))).toBeUndefined();
    expect(await call(slack, "chat.update", { channel: "C1", ts: first.ts, text: "b" })).toMatchObject({
      ok: true,
      ts: first.ts,
    });
    const second = await call(slack, "chat.postMessage", { channel: "C1", text: "c" });
    expect(second.ts).not.toBe(first.ts);
    expect(slack.messagesIn("C1").map((m) => m.text)).toEqual(["c"]);
    // The calls stay recorded: forgetting messages is not clearing calls.
    expect(slack.callsTo("chat.postMessage")).toHaveLength(2);
  });
});
