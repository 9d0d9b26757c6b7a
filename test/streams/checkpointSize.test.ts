import { describe, expect, it, vi } from "vitest";
import type { StreamRecord } from "../../src/app/streams/record/checkpoint";
import { CUT_TOO_LONG, CUT_TOO_SLOW } from "../../src/app/streams/rotate/replyCaps";
import { Outbox } from "../../src/recording/outbox";
import { type MentionHandler, timedMention } from "../support/timedStream";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const CHANNEL = "C0CHECK";
const THREAD = "1700000000.000500";
const place = { channel: CHANNEL, thread: THREAD };
const thread = () => slack().messagesIn(CHANNEL, THREAD);
const joined = () =>
  thread()
    .map((m) => m.text)
    .join("");
const words = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `w${i + from} `);
/** The text of every stream call Slack accepted, in order. */
const sentText = () =>
  slack()
    .calls.filter((call) => call.outcome === "ok" && /^chat\.(start|append|stop)Stream$/.test(call.method))
    .map((call) => String(call.body.markdown_text ?? ""))
    .join("");

const checkpointOf = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ json: string | null }>(`SELECT steps ->> '$."stream #0"' AS json FROM outbox WHERE effect = 'run'`)
    .one();

/** Appends each token; the first attempt throws after `crashAfter` of them; tokens of attempt n from `text(n)`. */
const answer =
  (text: (attempt: number) => string[], crashAfter?: number): MentionHandler =>
  async ({ sayStream, attempt }) => {
    const stream = sayStream({ buffer_size: 1 });
    for (const [i, token] of text(attempt).entries()) {
      if (attempt === 1 && i === crashAfter) throw new Error("crashed mid-stream");
      await stream.append({ markdown_text: token });
    }
    await stream.stop();
  };

/** After the last of `sweeps` sweeps: the run is delivered, neither pending nor parked. */
const settledAfter = (sweeps: number) => (outbox: Outbox, _: DurableObjectState, sweep: number) => {
  if (sweep === sweeps - 1) expect(outbox.countsByStatus()).toMatchObject({ pending: 0, parked: 0 });
};

describe("a streamed answer's checkpoint", () => {
  it("stays bounded: 120 appends of 10 000 control characters, the whole record under 150 kB (was 7.1 MB)", async () => {
    // Every checkpoint write, as the row's `steps` value takes it (JSON text, bytes).
    const written: number[] = [];
    const original = Outbox.prototype.recordStreamCheckpoint;
    vi.spyOn(Outbox.prototype, "recordStreamCheckpoint").mockImplementation(function (this: Outbox, ...args) {
      written.push(new TextEncoder().encode(args[3]).length);
      return original.apply(this, args);
    });
    const text = "\u0007".repeat(10_000);
    await timedMention(
      async ({ sayStream }) => {
        const stream = sayStream();
        for (let i = 0; i < 120; i++) await stream.append({ markdown_text: text });
        await stream.stop();
      },
      place,
      { vars: { STREAM_MAX_REPLY_CHARS: "2000000" }, inspect: settledAfter(1) },
    );
    const largest = Math.max(...written);
    console.log(`checkpoint of 120 x 10k control characters: largest ${largest} bytes over ${written.length} writes`);
    expect(largest).toBeLessThan(150_000);
    expect(joined()).toBe(text.repeat(120));
    expect(thread().every((m) => !m.streaming)).toBe(true);
  }, 60_000);

  it("a retry skips what sealed messages show: every character reaches Slack once", async () => {
    const text = words(300);
    await timedMention(
      answer(() => text, 200),
      place,
      { vars: { STREAM_MAX_CHARS: "200" }, sweeps: 3, inspect: settledAfter(3) },
    );
    expect(thread().length).toBeGreaterThan(5);
    expect(joined()).toBe(text.join(""));
    expect(sentText()).toBe(text.join(""));
  });

  it("a retry that differs inside a sealed message cuts back to its start: the thread shows exactly the new answer", async () => {
    const changed = (attempt: number) => words(300).map((word, i) => (attempt > 1 && i === 40 ? "CHANGED " : word));
    await timedMention(answer(changed, 200), place, { vars: { STREAM_MAX_CHARS: "200" }, sweeps: 3, inspect: settledAfter(3) });
    expect(joined()).toBe(changed(2).join(""));
    expect(thread().every((m) => !m.streaming)).toBe(true);
  });

  it("a retry that ends inside a sealed message (a shorter answer) leaves exactly it", async () => {
    const shorter = (attempt: number) => words(attempt === 1 ? 300 : 75);
    await timedMention(answer(shorter, 200), place, { vars: { STREAM_MAX_CHARS: "200" }, sweeps: 3, inspect: settledAfter(3) });
    expect(joined()).toBe(words(75).join(""));
    expect(thread().every((m) => !m.streaming)).toBe(true);
  });

  it("a checkpoint written before sealing (every message's full text) is read by a retry after the upgrade", async () => {
    const text = words(300);
    let unsealed = 0;
    await timedMention(
      answer(() => text, 200),
      place,
      {
        vars: { STREAM_MAX_CHARS: "200" },
        sweeps: 3,
        inspect: (_, state, sweep) => {
          if (sweep !== 0) return;
          // As the code before this change wrote it: each message with its whole text, nothing sealed.
          const record = JSON.parse(checkpointOf(state).json!) as StreamRecord;
          const shown = new Map(thread().map((m) => [m.ts, m.text]));
          const old = { ...record, messages: record.messages.map(({ sealed, ...m }) => ({ ...m, text: shown.get(m.ts)! })) };
          unsealed = record.messages.filter((m) => m.sealed).length;
          state.storage.sql.exec(
            `UPDATE outbox SET steps = json_set(steps, '$."stream #0"', json(?)) WHERE effect = 'run'`,
            JSON.stringify(old),
          );
        },
      },
    );
    expect(unsealed).toBeGreaterThan(3);
    expect(joined()).toBe(text.join(""));
    expect(sentText()).toBe(text.join(""));
  });
});

describe("an answer's caps", () => {
  it("STREAM_MAX_REPLY_CHARS: the answer is cut there with a notice, nothing left streaming, the run done", async () => {
    await timedMention(
      answer(() => words(400)),
      place,
      { vars: { STREAM_MAX_REPLY_CHARS: "1000" }, inspect: settledAfter(1) },
    );
    expect(joined()).toBe(words(400).join("").slice(0, 1000) + CUT_TOO_LONG);
    expect(thread().every((m) => !m.streaming)).toBe(true);
  });

  it("STREAM_MAX_REPLY_MS: text after it is dropped, the answer ends with a notice, the run done", async () => {
    const slow: MentionHandler = async ({ sayStream }) => {
      const stream = sayStream({ buffer_size: 1 });
      for (const word of words(400)) {
        await stream.append({ markdown_text: word });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await stream.stop();
    };
    await timedMention(slow, place, { vars: { STREAM_MAX_REPLY_MS: "10000" }, inspect: settledAfter(1) });
    const text = joined();
    expect(text.endsWith(CUT_TOO_SLOW)).toBe(true);
    const kept = text.slice(0, -CUT_TOO_SLOW.length);
    expect(words(400).join("").startsWith(kept)).toBe(true);
    expect(kept.split(" ").length).toBeLessThan(120);
    expect(thread().every((m) => !m.streaming)).toBe(true);
  });
});
