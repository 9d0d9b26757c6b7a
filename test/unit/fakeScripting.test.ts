import { describe, expect, it } from "vitest";
import { FakeSlack } from "../../src/testing";

// The kit's fake scripted per method (issue 31): an answer of the test's own, a delay, and
// Slack's own answer to a method name it does not know.

async function call(slack: FakeSlack, method: string, body: Record<string, unknown> = {}, signal?: AbortSignal) {
  const response = await slack.fetch(`${slack.apiUrl}${method}`, {
    method: "POST",
    headers: { authorization: "Bearer xoxb-T1", "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("FakeSlack scripted per method", () => {
  it("a name Slack does not know is answered unknown_method; Web API methods it has no answer for, ok", async () => {
    const slack = new FakeSlack();
    expect((await call(slack, "chat.postMesage")).body).toEqual({ ok: false, error: "unknown_method" });
    expect((await call(slack, "reactions.add", { name: "eyes" })).body).toEqual({ ok: true });
    expect((await call(slack, "assistant.threads.setStatus")).body).toEqual({ ok: true });
    expect(
      (await call(slack, "agents.sessions.setStatus", { status: "active", channel_id: "D1", thread_ts: "1.1" })).body,
    ).toEqual({
      ok: true,
      status: "active",
    });
  });

  it("answerWith: every later call of the method gets the test's answer, made from its body if asked, until taken back", async () => {
    const slack = new FakeSlack().answerWith("users.info", (body) => ({ ok: true, user: { id: body.user, tz: "Europe/Paris" } }));
    expect((await call(slack, "users.info", { user: "U1" })).body).toEqual({ ok: true, user: { id: "U1", tz: "Europe/Paris" } });
    slack.answerWith("conversations.info", { ok: false, error: "channel_not_found" });
    expect((await call(slack, "conversations.info", { channel: "C1" })).body).toEqual({ ok: false, error: "channel_not_found" });
    // A fault still comes first; taken back, the fake's own answer returns.
    slack.failNext("users.info", { status: 500 });
    expect((await call(slack, "users.info", { user: "U1" })).status).toBe(500);
    slack.answerWith("users.info");
    expect((await call(slack, "users.info", { user: "U2" })).body).toMatchObject({
      ok: true,
      user: { id: "U2", name: "tester" },
    });
    expect(slack.callsTo("users.info")).toHaveLength(3);
  });

  it("{ delayMs }: answered as usual that much later, or given up by the caller first", async () => {
    const slack = new FakeSlack().fail({ method: "chat.postMessage" }, { delayMs: 60 }, 2);
    const answered = call(slack, "chat.postMessage", { channel: "C1", text: "late" });
    await slack.waitFor("chat.postMessage");
    // Received, not yet applied: nothing shows until it is answered.
    expect(slack.messagesIn("C1")).toEqual([]);
    expect((await answered).body).toMatchObject({ ok: true, channel: "C1" });
    await expect(call(slack, "chat.postMessage", { channel: "C1", text: "abandoned" }, AbortSignal.timeout(5))).rejects.toThrow();
    // A delayed call is applied when it is answered: the abandoned one never was.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(slack.messagesIn("C1").map((m) => m.text)).toEqual(["late"]);
  });
});
