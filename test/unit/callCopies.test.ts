import { afterEach, describe, expect, it, vi } from "vitest";
import { recordEnteredSpans } from "../../src/platform/spans";
import { createSlackClient } from "../../src/slack/client";

afterEach(() => {
  vi.restoreAllMocks();
  recordEnteredSpans(undefined);
});

/** `value`, with every walk of its keys (a spread, a rest, Object.keys) counted. */
function walked<T extends object>(value: T) {
  const counted = { walks: 0 };
  const proxy = new Proxy(value, {
    ownKeys(target) {
      counted.walks++;
      return Reflect.ownKeys(target);
    },
  });
  return { proxy, counted };
}

/** The requests the Web API was sent, answered ok with a message's ts. */
function webApi() {
  const sent: Array<{ url: string; authorization: string | null; body: string }> = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    sent.push({ url: String(input), authorization: new Headers(init?.headers).get("authorization"), body: String(init?.body) });
    return new Response(JSON.stringify({ ok: true, ts: "1765000000.000200" }), {
      headers: { "content-type": "application/json" },
    });
  });
  return sent;
}

function client(traced: Record<string, string>) {
  return createSlackClient({
    apiUrl: "http://127.0.0.1:9/api/",
    timeoutMs: 5_000,
    token: () => "xoxb-bot",
    responseUrlOrigins: [],
    traced,
  });
}

describe("a Web API call copies neither the attempt's ids nor its body", () => {
  it("untraced: the attempt's ids are not copied for the call's span, and the body's keys are walked once (to encode it)", async () => {
    const sent = webApi();
    const ids = walked({ event_id: "Ev1", workspace: "T1", listener: "mention" });
    const body = walked({ channel: "C1", text: "hi" });
    const answer = await client(ids.proxy).call("chat.postMessage", body.proxy);
    expect(answer).toMatchObject({ ok: true, ts: "1765000000.000200" });
    expect(sent).toEqual([
      { url: "http://127.0.0.1:9/api/chat.postMessage", authorization: "Bearer xoxb-bot", body: "channel=C1&text=hi" },
    ]);
    expect(ids.counted.walks).toBe(0);
    expect(body.counted.walks).toBe(1);
  });

  it("a span that keeps its attributes still gets the ids and the method", async () => {
    webApi();
    const spans: Array<{ name: string; attributes: Record<string, unknown> }> = [];
    recordEnteredSpans((span) => spans.push(span));
    await client({ event_id: "Ev1", workspace: "T1" }).call("chat.postMessage", { channel: "C1", text: "hi" });
    expect(spans).toEqual([
      { name: "slack.call", attributes: { event_id: "Ev1", workspace: "T1", "slack.method": "chat.postMessage" } },
    ]);
  });

  it("a caller's token is the call's credential and is left out of its body", async () => {
    const sent = webApi();
    await client({}).call("chat.postMessage", { channel: "C1", text: "hi", token: "xoxp-user" });
    expect(sent).toEqual([
      { url: "http://127.0.0.1:9/api/chat.postMessage", authorization: "Bearer xoxp-user", body: "channel=C1&text=hi" },
    ]);
  });
});

describe("a Web API answer reads only what its caller needs", () => {
  it("an answer that delivered reads no Retry-After; a refusal still does", async () => {
    const reads = vi.spyOn(Headers.prototype, "get");
    const answers = [
      new Response(JSON.stringify({ ok: true, ts: "1.2" })),
      new Response(JSON.stringify({ ok: false, error: "ratelimited" }), { status: 429, headers: { "retry-after": "3" } }),
    ];
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => answers.shift()!);
    const calls = client({});
    expect(await calls.call("chat.postMessage", { channel: "C1", text: "hi" })).toMatchObject({ ok: true, ts: "1.2" });
    expect(reads).toHaveBeenCalledTimes(0);
    await expect(calls.call("chat.postMessage", { channel: "C1", text: "hi" })).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 3000,
    });
    expect(reads).toHaveBeenCalledWith("retry-after");
  });
});
