import { describe, expect, it } from "vitest";
import { FakeSlack, type FakeSlackOptions, parseFakeSlackFlags } from "../../src/testing";

// The kit's fake streams like Slack (chat.startStream / appendStream / stopStream), drops and
// refuses like Slack, and enforces Slack's tiers when asked — on a clock the test moves, no sleeps.

// biome-ignore lint/suspicious/noExplicitAny: Slack's JSON answers, read by path in assertions.
type Json = any;

const DM = "D0STREAM";
const THREAD = "1700000000.000100";

function fakeSlack(options: FakeSlackOptions = {}) {
  const clock = { now: 1_700_000_000_000 };
  const slack = new FakeSlack({ now: () => clock.now, ...options });
  const call = async (method: string, body: Record<string, unknown>, token = "xoxb-T1") => {
    const response = await slack.fetch(`${slack.apiUrl}${method}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), ...((await response.json()) as Json) };
  };
  const start = async (body: Record<string, unknown> = {}) =>
    (await call("chat.startStream", { channel: DM, thread_ts: THREAD, ...body })).ts as string;
  return { slack, clock, call, start };
}

describe("FakeSlack streams", () => {
  it("startStream answers a ts in the thread; appends accumulate; stop adds its text and blocks and closes the message", async () => {
    const { slack, call } = fakeSlack();
    const started = await call("chat.startStream", { channel: DM, thread_ts: THREAD, markdown_text: "1" });
    expect(started).toEqual({ status: 200, retryAfter: null, ok: true, channel: DM, ts: expect.stringMatching(/^\d+\.\d{6}$/) });
    const { ts } = started;
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: " 2" })).toMatchObject({
      ok: true,
      channel: DM,
      ts,
    });
    await call("chat.appendStream", {
      channel: DM,
      ts,
      chunks: [
        { type: "markdown_text", text: " 3" },
        { type: "task_update", id: "t1" },
      ],
    });
    expect(slack.message(DM, ts)).toMatchObject({ text: "1 2 3", streaming: true, state: "streaming", appends: 2 });
    const blocks = [{ type: "context_actions", elements: [] }];
    const stopped = await call("chat.stopStream", { channel: DM, ts, markdown_text: " 4", blocks });
    expect(stopped).toMatchObject({ ok: true, channel: DM, ts, message: { text: "1 2 3 4", thread_ts: THREAD } });
    expect(slack.message(DM, ts)).toEqual(
      expect.objectContaining({
        text: "1 2 3 4",
        blocks,
        streaming: false,
        state: "stopped",
        appends: 2,
        chunks: [{ type: "task_update", id: "t1" }],
      }),
    );
    for (const method of ["chat.appendStream", "chat.stopStream"])
      expect(await call(method, { channel: DM, ts, markdown_text: "5" })).toMatchObject({
        ok: false,
        error: "message_not_in_streaming_state",
      });
    expect(slack.message(DM, ts)?.text).toBe("1 2 3 4");
  });

  it("refuses a start without a thread, and one in a channel without the recipient user and team", async () => {
    const { call } = fakeSlack();
    expect(await call("chat.startStream", { channel: DM, markdown_text: "x" })).toMatchObject({
      ok: false,
      error: "invalid_arguments",
    });
    const inChannel = { channel: "C0STREAM", thread_ts: THREAD };
    expect(await call("chat.startStream", inChannel)).toMatchObject({ ok: false, error: "missing_recipient_user_id" });
    expect(await call("chat.startStream", { ...inChannel, recipient_user_id: "U1" })).toMatchObject({
      error: "missing_recipient_team_id",
    });
    expect(await call("chat.startStream", { ...inChannel, recipient_user_id: "U1", recipient_team_id: "T1" })).toMatchObject({
      ok: true,
    });
  });

  it("drops a stream once it has been open streamMaxOpenMs, appending or not; chat.update then gives it its text", async () => {
    const { slack, clock, call, start } = fakeSlack({ streamMaxOpenMs: 1_000 });
    const ts = await start({ markdown_text: "a" });
    clock.now += 600;
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: "b" })).toMatchObject({ ok: true });
    clock.now += 400; // 1 000 ms after the start, though the last append was 400 ms ago
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: "c" })).toMatchObject({
      ok: false,
      error: "message_not_in_streaming_state",
    });
    expect(await call("chat.stopStream", { channel: DM, ts })).toMatchObject({
      ok: false,
      error: "message_not_in_streaming_state",
    });
    expect(slack.message(DM, ts)).toMatchObject({ text: "ab", streaming: false, state: "dropped" });
    expect(await call("chat.update", { channel: DM, ts, text: "abc" })).toMatchObject({ ok: true, ts });
    expect(slack.message(DM, ts)).toMatchObject({ text: "abc", state: "dropped" });
    expect((await call("conversations.replies", { channel: DM, ts: THREAD })).messages).toMatchObject([{ ts, text: "abc" }]);
  });

  it("defaults to Slack's lifetime, and setStreamLimits changes it for open streams too", async () => {
    const { slack, clock, call, start } = fakeSlack();
    const ts = await start();
    clock.now += 299_999;
    expect(slack.message(DM, ts)?.state).toBe("streaming");
    slack.setStreamLimits({ streamMaxOpenMs: 200_000 });
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: "late" })).toMatchObject({
      error: "message_not_in_streaming_state",
    });
  });

  it("answers msg_too_long past streamMaxChars without applying the append; the stream stays open", async () => {
    const { slack, call, start } = fakeSlack({ streamMaxChars: 10 });
    const ts = await start({ markdown_text: "12345" });
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: "678901" })).toMatchObject({
      ok: false,
      error: "msg_too_long",
    });
    expect(slack.message(DM, ts)).toMatchObject({ text: "12345", state: "streaming", appends: 0 });
    expect(await call("chat.appendStream", { channel: DM, ts, markdown_text: "67890" })).toMatchObject({ ok: true });
    expect(await call("chat.stopStream", { channel: DM, ts, markdown_text: "!" })).toMatchObject({ error: "msg_too_long" });
    expect(await call("chat.stopStream", { channel: DM, ts })).toMatchObject({ ok: true });
    expect(await call("chat.startStream", { channel: DM, thread_ts: THREAD, markdown_text: "x".repeat(11) })).toMatchObject({
      error: "msg_too_long",
    });
  });

  it("reads a thread back with each message's final text: conversations.replies and messagesIn(channel, thread_ts)", async () => {
    const { slack, call, start } = fakeSlack();
    const first = await start({ markdown_text: "part one" });
    await call("chat.stopStream", { channel: DM, ts: first });
    const second = await start({ markdown_text: "part" });
    await call("chat.appendStream", { channel: DM, ts: second, markdown_text: " two" });
    await call("chat.postMessage", { channel: DM, text: "elsewhere" });
    expect(slack.messagesIn(DM, THREAD)).toMatchObject([
      { ts: first, text: "part one", state: "stopped" },
      { ts: second, text: "part two", state: "streaming", streaming: true },
    ]);
    const replies = await call("conversations.replies", { channel: DM, ts: THREAD });
    expect(replies.messages.map((m: Json) => m.text)).toEqual(["part one", "part two"]);
    expect(slack.messagesIn(DM).map((m) => m.state)).toEqual(["stopped", "streaming", "posted"]);
    expect(await call("chat.appendStream", { channel: DM, ts: "1.000001", markdown_text: "x" })).toMatchObject({
      error: "message_not_found",
    });
  });
});

describe("FakeSlack tiers", () => {
  it("leaves calls unlimited unless asked", async () => {
    const { slack, start } = fakeSlack();
    for (let i = 0; i < 30; i++) await start();
    expect(slack.rateLimited()).toEqual([]);
  });

  it("enforceTiers: 20 starts per workspace per minute, 100 appends; over them 429 with Retry-After, counted", async () => {
    const { slack, clock, call, start } = fakeSlack({ enforceTiers: true });
    const streams: string[] = [];
    for (let i = 0; i < 20; i++) {
      streams.push(await start());
      clock.now += 1_000;
    }
    const over = await call("chat.startStream", { channel: DM, thread_ts: THREAD });
    expect(over).toMatchObject({ status: 429, retryAfter: "40", ok: false, error: "ratelimited" });
    // Another workspace (token) has a budget of its own.
    expect(await call("chat.startStream", { channel: DM, thread_ts: THREAD }, "xoxb-T2")).toMatchObject({ ok: true });
    for (let i = 0; i < 100; i++)
      expect((await call("chat.appendStream", { channel: DM, ts: streams[0], markdown_text: "." })).ok).toBe(true);
    expect(await call("chat.appendStream", { channel: DM, ts: streams[0], markdown_text: "." })).toMatchObject({ status: 429 });
    expect(slack.message(DM, streams[0]!)?.text).toBe(".".repeat(100));
    clock.now += 40_000; // the first start leaves the window
    expect(await start()).toMatch(/^\d+\.\d{6}$/);
    expect(slack.rateLimited().map((c) => c.method)).toEqual(["chat.startStream", "chat.appendStream"]);
  });

  it("enforceTiers with limits of its own, and chat.postMessage about one a second per channel", async () => {
    const { slack, clock, call } = fakeSlack();
    slack.enforceTiers({ "chat.stopStream": 1 });
    const post = (channel: string) => call("chat.postMessage", { channel, text: "hi" });
    for (let i = 0; i < 3; i++) expect((await post("C1")).ok).toBe(true);
    expect(await post("C1")).toMatchObject({ status: 429, retryAfter: "1" });
    expect((await post("C2")).ok).toBe(true);
    clock.now += 1_000;
    expect((await post("C1")).ok).toBe(true);
    await call("chat.stopStream", { channel: DM, ts: "1.1" });
    expect(await call("chat.stopStream", { channel: DM, ts: "1.1" })).toMatchObject({ status: 429, retryAfter: "60" });
    expect(slack.rateLimited()).toHaveLength(2);
  });
});

describe("the fake Slack server's flags (slack-fake, npm run fake-slack)", () => {
  it("sets the port, the stream limits and the tiers; a value that is not a number is named", () => {
    expect(parseFakeSlackFlags([])).toEqual({ port: 8788, options: {} });
    const argv = ["--port", "0", "--stream-max-open-ms", "1000", "--stream-max-chars", "200", "--enforce-tiers"];
    expect(parseFakeSlackFlags(argv)).toEqual({
      port: 0,
      options: { streamMaxOpenMs: 1000, streamMaxChars: 200, enforceTiers: true },
    });
    expect(() => parseFakeSlackFlags(["--stream-max-chars", "lots"])).toThrow(
      '--stream-max-chars takes a whole number, not "lots"',
    );
  });
});
