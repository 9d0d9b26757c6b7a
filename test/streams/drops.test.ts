import { describe, expect, it } from "vitest";
import type { MessageState } from "../../src/testing/fakeStreams";
import { FAKE_SLACK_ORIGIN } from "../support/testBindings";
import { type MentionHandler, timedMention } from "../support/timedStream";
import { useFakeSlack } from "../support/useFakeSlack";

// Slack drops a stream about 5 minutes after its start; the fake does after 1 s here, and
// STREAM_SLACK_DROP_MS says so to the streamer. A message stopped in Slack sooner is the user's act.

const slack = useFakeSlack();
const CHANNEL = "C0DROPS";
const THREAD = "1700000000.000300";
const place = { channel: CHANNEL, thread: THREAD };
const FEEDBACK = [{ type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "feedback" }] }];
const counted = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1)).join(" ");
const thread = () => slack().messagesIn(CHANNEL, THREAD);
const drops = { STREAM_SLACK_DROP_MS: "1000" };

/** The demo model's answer to "count to n" as its tokens, "1", " 2" … one every 50 ms. */
async function* countingTokens(n: number): AsyncGenerator<string> {
  for (let i = 1; i <= n; i++) {
    if (i > 1) await new Promise((resolve) => setTimeout(resolve, 50));
    yield i === 1 ? "1" : ` ${i}`;
  }
}

/** The demo's answer to "count to n": a token every 50 ms, flushed every `buffer` characters, then `beforeStop` ms and the stop with feedback buttons. */
const countTo =
  (n: number, beforeStop = 0, buffer = 64): MentionHandler =>
  async ({ sayStream }) => {
    const stream = sayStream({ buffer_size: buffer });
    for await (const token of countingTokens(n)) await stream.append({ markdown_text: token });
    await new Promise((resolve) => setTimeout(resolve, beforeStop));
    await stream.stop({ blocks: FEEDBACK as never });
  };

/** No message empty, none streaming, every one finalised; the feedback buttons once, under the last one's text. */
function expectWhole(text: string) {
  const messages = thread();
  expect(messages.map((m) => m.text).join("")).toBe(text);
  expect(messages.filter((m) => m.text === "" || m.streaming)).toEqual([]);
  const withBlocks = messages.filter((m) => m.blocks !== undefined);
  expect(withBlocks.map((m) => m.ts)).toEqual([messages.at(-1)!.ts]);
  expect(withBlocks[0]!.blocks).toEqual([{ type: "markdown", text: messages.at(-1)!.text }, ...FEEDBACK]);
}

describe("a streamed answer Slack keeps dropping", () => {
  it("count to 200, streams dropped after 1 s, the stop after the last one dropped: no empty message opens for the buttons", async () => {
    slack().setStreamLimits({ streamMaxOpenMs: 1000 });
    await timedMention(countTo(200, 2000, 1), place, { vars: drops });
    expect(thread().length).toBeGreaterThan(5);
    expectWhole(counted(200));
  }, 30_000);

  it("a stop when the open message is past STREAM_MAX_OPEN_MS stops that message: nothing opens just to hold the buttons", async () => {
    slack().setStreamLimits({ streamMaxOpenMs: 10_000 });
    await timedMention(countTo(100, 3500, 1), place, { vars: { ...drops, STREAM_MAX_OPEN_MS: "3000" } });
    expect(thread().at(-1)).toMatchObject({ state: "stopped", blocks: FEEDBACK });
    expect(thread().every((m) => m.text !== "" && !m.streaming)).toBe(true);
    expect(
      thread()
        .map((m) => m.text)
        .join(""),
    ).toBe(counted(100));
  }, 30_000);
});

describe("a stream stopped in Slack", () => {
  /** Counts to 200; at 2 s Slack stops the stream (the user, or another client); `after` sees what the handler saw. */
  async function stoppedAt2s(vars: Record<string, string>) {
    const seen: { appendsAfter: number; stopResolved: boolean } = { appendsAfter: 0, stopResolved: false };
    let stopped: string | undefined;
    await timedMention(
      async ({ sayStream }) => {
        const stream = sayStream({ buffer_size: 64 });
        for await (const token of countingTokens(200)) {
          if (!stopped && token === " 40") {
            stopped = stream.ts;
            await slack().fetch(
              new Request(`${FAKE_SLACK_ORIGIN}/api/chat.stopStream`, {
                method: "POST",
                headers: { authorization: "Bearer xoxb-other-client", "content-type": "application/json" },
                body: JSON.stringify({ channel: CHANNEL, ts: stopped }),
              }),
            );
          }
          await stream.append({ markdown_text: token });
          if (stopped) seen.appendsAfter++;
        }
        await stream.stop({ blocks: FEEDBACK as never });
        seen.stopResolved = true;
      },
      place,
      { vars },
    );
    return { seen, stopped: stopped! };
  }

  it("two seconds in, before Slack's drop age: the answer ends there, finalised, nothing new opened, the run done", async () => {
    slack().setStreamLimits({ streamMaxOpenMs: 300_000 });
    const { seen, stopped } = await stoppedAt2s({});
    const messages = thread();
    expect(messages.map((m) => m.ts)).toEqual([stopped]);
    expect(messages[0]).toMatchObject({ streaming: false, state: "stopped" satisfies MessageState["state"] });
    expect(counted(200).startsWith(messages[0]!.text)).toBe(true);
    expect(messages[0]!.text.length).toBeLessThan(counted(39).length + 1);
    expect(slack().callsTo("chat.startStream")).toHaveLength(1);
    // The handler went on undisturbed: its appends were no-ops, its stop resolved.
    expect(seen).toEqual({ appendsAfter: 161, stopResolved: true });
  }, 30_000);

  it("found not streaming after Slack's drop age, it was dropped: finalised and continued in a new message", async () => {
    slack().setStreamLimits({ streamMaxOpenMs: 300_000 });
    await stoppedAt2s(drops);
    expect(thread().length).toBeGreaterThan(1);
    expect(
      thread()
        .map((m) => m.text)
        .join(""),
    ).toBe(counted(200));
  }, 30_000);
});

describe("a posted answer (stream starts exhausted)", () => {
  it("rotating at STREAM_MAX_CHARS is never taken for a message stopped in Slack: the whole answer, exact", async () => {
    slack().fail({ method: "chat.startStream" }, { status: 429, retryAfter: 60 }, 10);
    await timedMention(countTo(200, 0, 1), place, { vars: { STREAM_MAX_CHARS: "200" } });
    expect(slack().callsTo("chat.postMessage").length).toBeGreaterThan(1);
    expect(
      thread()
        .map((m) => m.text)
        .join(""),
    ).toBe(counted(200));
    expect(thread().every((m) => !m.streaming)).toBe(true);
  }, 30_000);
});
