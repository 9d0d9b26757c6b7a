import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { AppMentionEvent } from "@slack/types";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import { deliverLeased } from "../../src/delivery/deliverClaimed";
import { RetryableError } from "../../src/platform/errors";
import type { Outbox } from "../../src/recording/outbox";
import { controlClock } from "../support/clock";
import { answeringAtModelPace } from "../support/concurrentAnswers";
import { mentionIn } from "../support/inboundOf";
import { outboxOf, recordPlanned, shardIn } from "../support/shardIn";
import { HANDLER_MAX_ATTEMPTS, LEASE_MS } from "../support/testBindings";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const CHANNEL = "C0STREAM";
const THREAD = "1700000000.000100";

type Handler = (args: RunArgs<EventArgs<AppMentionEvent>>) => Promise<void>;

/** An app_mention in a thread of CHANNEL, as its shard records it. */
const mention = (team: string, n: number) => mentionIn(team, CHANNEL, `${THREAD}${n}`, `Ev${n}`);

/**
 * Runs `handler` for `runs` app_mentions in one fresh shard through its real delivery loop
 * (outbox, leases, checkpoints), with stream settings of its own; `sweeps` sweeps, the clock
 * moving `stepMs` before each (retries come due). Returns the thread's messages per request.
 */
async function streamed(
  handler: Handler,
  options: {
    vars?: Record<string, string>;
    runs?: number;
    sweeps?: number;
    stepMs?: number;
    clock?: ReturnType<typeof controlClock>;
    setup?: (state: DurableObjectState) => void;
    /** After each sweep (before the clock moves): an operator's act between attempts. */
    afterSweep?: (sweep: number, outbox: Outbox) => void;
  } = {},
) {
  const clock = options.clock ?? controlClock();
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const app = new App().event("app_mention", handler);
  const stub = env.SHARD.get(env.SHARD.idFromName(`streams-${team}`));
  const vars = { SLACK_PACING: "false", ...options.vars };
  await runInDurableObject(stub, async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: vars });
    for (let n = 0; n < (options.runs ?? 1); n++) recordPlanned(outbox, app, mention(team, n));
    options.setup?.(state);
    for (let i = 0; i < (options.sweeps ?? 4); i++) {
      await loop.sweep(Date.now());
      options.afterSweep?.(i, outbox);
      clock.advance(options.stepMs ?? 60_000);
    }
  });
  return { team, stub, threads: (n = 0) => slack().messagesIn(CHANNEL, `${THREAD}${n}`) };
}

/** Slack applies the first `method` call, and its answer never comes back (the connection drops). */
function loseFirstAnswer(method: string, as: "reset" | "500" = "reset"): void {
  const fake = slack();
  let calls = 0;
  vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
    const request = new Request(input as Request, init);
    const answered = await fake.fetch(request);
    if (request.url.endsWith(`/${method}`) && ++calls === 1) {
      // A proxy's 500 in place of Slack's answer: not a refusal, the call may have been applied.
      if (as === "500") return Response.json({ ok: false, error: "internal_error" }, { status: 500 });
      throw new TypeError("Network connection lost.");
    }
    return answered;
  });
}

const words = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `w${i + from} `);

/** Appends each word, throwing after `crashAfter` of them on the first attempt (on every attempt with `always`). */
function answer(text: string[], crashAfter?: number, always = false): Handler {
  return async ({ sayStream, attempt }) => {
    const streamer = sayStream();
    for (const [i, word] of text.entries()) {
      if ((always || attempt === 1) && i === crashAfter) throw new Error("crashed mid-stream");
      await streamer.append({ markdown_text: word });
    }
    await streamer.stop();
  };
}

/** The text of every stream call Slack accepted, in order. */
const sentText = () =>
  slack()
    .calls.filter((call) => call.outcome === "ok" && /^chat\.(start|append|stop)Stream$/.test(call.method))
    .map((call) => String(call.body.markdown_text ?? ""))
    .join("");

describe("sayStream", () => {
  it("a clean stream is one message with exactly the text, stopped, sent in buffered flushes", async () => {
    const text = words(300);
    const { threads } = await streamed(answer(text), { sweeps: 1 });
    const [message, ...others] = threads();
    expect(others).toEqual([]);
    expect(message).toMatchObject({ text: text.join(""), streaming: false, state: "stopped" });
    expect(slack().callsTo("chat.startStream")[0]!.body).toMatchObject({
      channel: CHANNEL,
      thread_ts: `${THREAD}0`,
      recipient_user_id: "U0ASKER",
    });
    // About 256 characters a flush, not one call per token.
    expect(slack().callsTo("chat.appendStream").length).toBeLessThan(text.join("").length / 200);
  });

  it("chunks are sent at once, with the text gathered before them, and a retry does not send them again", async () => {
    const task = { type: "task_update", id: "t1", title: "Searching", status: "in_progress" } as const;
    const { threads } = await streamed(
      async ({ sayStream, attempt }) => {
        const streamer = sayStream();
        await streamer.append({ markdown_text: "Let me look. " });
        await streamer.append({ chunks: [task, { type: "markdown_text", text: "Found it." }] });
        await slack().waitForCall((call) => call.method === "chat.startStream");
        if (attempt === 1) throw new Error("crashed after the chunks");
        await streamer.stop();
      },
      { sweeps: 3 },
    );
    expect(threads()).toMatchObject([{ text: "Let me look. Found it.", streaming: false, chunks: [task] }]);
    // The first text goes at once; the chunks, with the text gathered since, in the next flush, once.
    expect(slack().callsTo("chat.startStream")[0]!.body.markdown_text).toBe("Let me look. ");
    expect(
      slack()
        .callsTo("chat.appendStream")
        .map((call) => call.body.chunks),
    ).toEqual([[{ type: "markdown_text", text: "Found it." }, task]]);
  });

  it("a retry that adds a chunk inside what Slack shows continues from there, without repeating text", async () => {
    const task = { type: "task_update", id: "t1", title: "Checking", status: "complete" } as const;
    const text = words(200);
    const { threads } = await streamed(
      async ({ sayStream, attempt }) => {
        const streamer = sayStream();
        for (const [i, word] of text.entries()) {
          if (attempt === 1 && i === 150) throw new Error("crashed mid-stream");
          if (attempt > 1 && i === 20) await streamer.append({ chunks: [task] });
          await streamer.append({ markdown_text: word });
        }
        await streamer.stop();
      },
      { sweeps: 3 },
    );
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
    expect(messages.every((m) => !m.streaming)).toBe(true);
  });

  it("a run that ends without stop() has its stream stopped", async () => {
    const { threads } = await streamed(
      async ({ sayStream }) => {
        await sayStream().append({ markdown_text: "left open" });
      },
      { sweeps: 1 },
    );
    expect(threads()).toMatchObject([{ text: "left open", streaming: false }]);
  });

  it("a retry with the same text sends nothing Slack shows already and finishes the same message", async () => {
    const text = words(300);
    const { threads } = await streamed(answer(text, 200), { sweeps: 3 });
    expect(threads()).toMatchObject([{ text: text.join(""), streaming: false, state: "stopped" }]);
    // Every character reached Slack once: what the interrupted attempt had sent was not sent again.
    expect(sentText()).toBe(text.join(""));
  });

  it("a retry with different text replaces the interrupted answer instead of adding a second one", async () => {
    const { threads } = await streamed(
      async ({ sayStream, attempt }) => {
        const streamer = sayStream();
        const text = attempt === 1 ? words(200) : words(250, 1000);
        for (const [i, word] of text.entries()) {
          if (attempt === 1 && i === 150) throw new Error("crashed mid-stream");
          await streamer.append({ markdown_text: word });
        }
        await streamer.stop();
      },
      { sweeps: 3 },
    );
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(words(250, 1000).join(""));
    expect(messages.every((m) => !m.streaming)).toBe(true);
  });

  it("a finished stream is never sent again by its run's retry", async () => {
    const text = words(100);
    const { threads } = await streamed(
      async ({ sayStream, attempt }) => {
        const streamer = sayStream();
        // Even a retry that would answer differently: the answer was complete, it stands.
        for (const word of attempt === 1 ? text : words(100, 500)) await streamer.append({ markdown_text: word });
        await streamer.stop({ blocks: [{ type: "divider" }] });
        if (attempt === 1) throw new Error("a later line of the handler failed");
      },
      { sweeps: 3 },
    );
    expect(threads()).toMatchObject([{ text: text.join(""), state: "stopped", blocks: [{ type: "divider" }] }]);
    expect(slack().callsTo("chat.startStream").length).toBe(1);
    expect(slack().callsTo("chat.stopStream").length).toBe(1);
    expect(sentText()).toBe(text.join(""));
  });

  it("a run parked after its last attempt leaves no message streaming", async () => {
    const { threads } = await streamed(answer(words(300), 150, true), { sweeps: HANDLER_MAX_ATTEMPTS + 2 });
    const [message, ...others] = threads();
    expect(others).toEqual([]);
    expect(message).toMatchObject({ streaming: false, state: "stopped" });
    expect(words(150).join("").startsWith(message!.text)).toBe(true);
  });

  it("a flush whose outcome is unknown is neither duplicated nor dropped", async () => {
    // Slack applied the first append, and its answer never came back.
    loseFirstAnswer("chat.appendStream");
    const text = words(300);
    const { threads } = await streamed(answer(text), { sweeps: 3 });
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
    expect(messages.length).toBe(2);
    expect(messages.every((m) => !m.streaming)).toBe(true);
  });

  it("a start whose answer was lost is found in the thread and continued, not left streaming", async () => {
    // Slack opened the stream, and its ts never came back.
    loseFirstAnswer("chat.startStream");
    const text = words(300);
    const { threads } = await streamed(answer(text), { sweeps: 3 });
    expect(threads()).toMatchObject([{ text: text.join(""), streaming: false, state: "stopped" }]);
    expect(slack().callsTo("chat.startStream").length).toBe(1);
  });

  it("task_display_mode reaches every chat.startStream of the reply, a chain's messages alike", async () => {
    const text = words(300);
    await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream({ task_display_mode: "plan" });
        for (const word of text) await streamer.append({ markdown_text: word });
        await streamer.stop();
      },
      { sweeps: 1, vars: { STREAM_MAX_CHARS: "1000" } },
    );
    const starts = slack().callsTo("chat.startStream");
    expect(starts.length).toBeGreaterThan(1);
    expect(starts.map((call) => call.body.task_display_mode)).toEqual(starts.map(() => "plan"));
    expect(
      slack()
        .callsTo("chat.appendStream")
        .every((call) => call.body.task_display_mode === undefined),
    ).toBe(true);
  });

  it("a start answered 500 after Slack opened it is found and continued: a 5xx is no refusal", async () => {
    loseFirstAnswer("chat.startStream", "500");
    const text = words(300);
    const { threads } = await streamed(answer(text), { sweeps: 3 });
    expect(threads()).toMatchObject([{ text: text.join(""), streaming: false, state: "stopped" }]);
    expect(slack().callsTo("chat.startStream").length).toBe(1);
  });

  it("a flush answered 500 after Slack applied it is neither duplicated nor dropped", async () => {
    loseFirstAnswer("chat.appendStream", "500");
    const text = words(300);
    const { threads } = await streamed(answer(text), { sweeps: 3 });
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
    expect(messages.every((m) => !m.streaming)).toBe(true);
  });

  it("rotates to a new message in the thread before STREAM_MAX_CHARS, and on msg_too_long", async () => {
    slack().setStreamLimits({ streamMaxChars: 700 });
    const text = words(400);
    const { threads } = await streamed(answer(text), { sweeps: 1, vars: { STREAM_MAX_CHARS: "1000" } });
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
    expect(messages.length).toBeGreaterThan(3);
    expect(messages.every((m) => !m.streaming && m.text.length <= 700)).toBe(true);
  });

  /** Sixty words, one flush each, 100 ms apart: six seconds of streaming. */
  function slowAnswer(clock: ReturnType<typeof controlClock>): Handler {
    return async ({ sayStream }) => {
      const streamer = sayStream({ buffer_size: 1 });
      for (const word of words(60)) {
        await streamer.append({ markdown_text: word });
        // Slack has it before time passes: one flush per word.
        await slack().waitForCall((call) => String(call.body.markdown_text ?? "").endsWith(word));
        clock.advance(100);
      }
      await streamer.stop();
    };
  }

  it("continues in a new message in the thread before STREAM_MAX_OPEN_MS", async () => {
    const clock = controlClock();
    // Ours (2 s) before Slack's drop (3 s): each message is stopped in time.
    slack().setStreamLimits({ streamMaxOpenMs: 3000 });
    const { threads } = await streamed(slowAnswer(clock), { clock, sweeps: 1, vars: { STREAM_MAX_OPEN_MS: "2000" } });
    expect(
      threads()
        .map((m) => m.text)
        .join(""),
    ).toBe(words(60).join(""));
    expect(threads().length).toBe(3);
    expect(threads().every((m) => m.state === "stopped")).toBe(true);
  });

  it("a stream Slack dropped (message_not_in_streaming_state) is finalised by chat.update and continued", async () => {
    const clock = controlClock();
    slack().setStreamLimits({ streamMaxOpenMs: 3000 });
    const { threads } = await streamed(slowAnswer(clock), {
      clock,
      sweeps: 1,
      vars: { STREAM_MAX_OPEN_MS: "600000", STREAM_SLACK_DROP_MS: "3000" },
    });
    const messages = threads();
    expect(messages.map((m) => m.text).join("")).toBe(words(60).join(""));
    expect(messages.length).toBeGreaterThan(1);
    expect(messages[0]).toMatchObject({ state: "dropped", streaming: false });
    expect(messages.at(-1)).toMatchObject({ state: "stopped", streaming: false });
    expect(
      slack()
        .callsTo("chat.update")
        .some((call) => call.body.ts === messages[0]!.ts),
    ).toBe(true);
  });

  it("a stop that meets a dropped stream still shows the answer and its final blocks", async () => {
    const clock = controlClock();
    slack().setStreamLimits({ streamMaxOpenMs: 3000 });
    const buttons = [{ type: "context_actions", elements: [{ type: "feedback_buttons", action_id: "feedback" }] }];
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream({ buffer_size: 1 });
        await streamer.append({ markdown_text: "the whole answer" });
        await slack().waitForCall((call) => call.method === "chat.startStream");
        clock.advance(5000);
        await streamer.stop({ blocks: buttons as never });
      },
      { clock, sweeps: 1, vars: { STREAM_MAX_OPEN_MS: "600000", STREAM_SLACK_DROP_MS: "3000" } },
    );
    // The blocks go under the dropped message's text (chat.update): no empty message opens to hold them.
    expect(threads()).toMatchObject([
      {
        text: "the whole answer",
        state: "dropped",
        streaming: false,
        blocks: [{ type: "markdown", text: "the whole answer" }, ...buttons],
      },
    ]);
  });

  it("keeps the run's lease while a stream outlasts LEASE_MS, fenced by it", async () => {
    const clock = controlClock();
    let outbox: Outbox | undefined;
    const intruders: number[] = [];
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream({ buffer_size: 1 });
        for (const word of words(10)) {
          await streamer.append({ markdown_text: word });
          await slack().waitForCall((call) => String(call.body.markdown_text ?? "").endsWith(word));
          clock.advance(LEASE_MS / 2);
          // Another sweep looks for rows whose lease ran out: this run's must not be one.
          intruders.push(outbox!.claimBatch(crypto.randomUUID(), Date.now(), LEASE_MS, 10).length);
        }
        await streamer.stop();
      },
      { clock, sweeps: 1, setup: (state) => (outbox = outboxOf(state)) },
    );
    // Ten flushes over five leases, one attempt: no other attempt took the run over.
    expect(intruders).toEqual(Array(10).fill(0));
    expect(threads()).toMatchObject([{ text: words(10).join(""), streaming: false }]);
    expect(slack().callsTo("chat.startStream").length).toBe(1);
  });

  it("an attempt that lost its run's lease sends nothing more; the one that took over completes one answer", async () => {
    let outbox: Outbox | undefined;
    let takenOver = false;
    const text = words(200);
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream();
        for (const [i, word] of text.entries()) {
          await streamer.append({ markdown_text: word });
          if (!takenOver && i === 100) {
            takenOver = true;
            await slack().waitForCall((call) => call.method === "chat.startStream");
            // A sweep took the run over, as if this attempt had stalled past its lease.
            outbox!.claimBatch("stale", Date.now() + LEASE_MS * 10, LEASE_MS, 10);
            outbox!.postpone(`Ev0:run:event:app_mention`, "stale", Date.now());
          }
        }
        await streamer.stop();
      },
      { sweeps: 3, setup: (state) => (outbox = outboxOf(state)) },
    );
    // The stale attempt's stream, which its fenced checkpoint could not record, was deleted.
    expect(threads()).toMatchObject([{ text: text.join(""), streaming: false, state: "stopped" }]);
  });

  it("20 concurrent streams in one workspace keep Slack's tiers: no 429, every answer complete", async () => {
    vi.useFakeTimers({
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
      now: Date.now() + 3_600_000,
    });
    try {
      slack().enforceTiers();
      const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
      const text = words(600);
      const app = answeringAtModelPace(text);
      const stub = env.SHARD.get(env.SHARD.idFromName(`streams-${team}`));
      await runInDurableObject(stub, async (_, state) => {
        const { outbox, loop } = shardIn(state, { name: `${team}/0`, app });
        // Each delivery's immediate attempt runs at once, as twenty mentions arriving together do.
        const attempts = Array.from({ length: 20 }, (_, n) => {
          const lease = { token: crypto.randomUUID(), expiresAt: Date.now() + LEASE_MS };
          return deliverLeased(loop.ready!.courier, lease.token, recordPlanned(outbox, app, mention(team, n), lease));
        });
        let done = false;
        const all = Promise.all(attempts).then(() => (done = true));
        // Virtual time: the tiers allow 20 starts and 20 stops a minute, so this takes minutes of it.
        for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersByTimeAsync(1000);
        await all;
        expect(outbox.countsByStatus()).toMatchObject({ pending: 0, parked: 0 });
        // Starts past Tier 2 waited for their turn inside their attempts: no retries, no postponed rows.
        expect(loop.counters).toMatchObject({ delivered: 20, retried: 0, postponed: 0, parked: 0 });
      });
      expect(slack().rateLimited()).toEqual([]);
      for (let n = 0; n < 20; n++) {
        const messages = slack().messagesIn(CHANNEL, `${THREAD}${n}`);
        expect(messages.map((m) => m.text).join("")).toBe(text.join(""));
        expect(messages.every((m) => !m.streaming)).toBe(true);
      }
      // Streams slowed down by the tiers sent fewer, bigger flushes than a stream alone would.
      expect(slack().callsTo("chat.appendStream").length).toBeLessThan(20 * (text.join("").length / 256));
    } finally {
      vi.useRealTimers();
    }
  }, 60_000);
});

describe("a parked run's streams", () => {
  it("a run parked when MAX_ATTEMPTS of a retryable error ran out leaves no message streaming, each at its checkpointed text", async () => {
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream();
        for (const word of words(300)) await streamer.append({ markdown_text: word });
        await slack().waitForCall((call) => call.method === "chat.startStream");
        throw new RetryableError("my API is flaky");
      },
      { sweeps: 4, vars: { MAX_ATTEMPTS: "2" } },
    );
    const messages = threads();
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => !m.streaming)).toBe(true);
    expect(messages.map((m) => m.text).join("")).toBe(words(300).join(""));
  });

  it("a replayed run continues in a new message, and parked again leaves none streaming", async () => {
    let replayed = false;
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream();
        for (const word of words(replayed ? 600 : 300)) await streamer.append({ markdown_text: word });
        await slack().waitForCall((call) => call.method === "chat.appendStream");
        throw new RetryableError("my API is flaky");
      },
      {
        sweeps: 5,
        vars: { MAX_ATTEMPTS: "1" },
        afterSweep: (sweep, outbox) => {
          if (sweep !== 1) return;
          replayed = true;
          expect(outbox.parked.replay(Date.now(), null)).toBe(1);
        },
      },
    );
    const messages = threads();
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((m) => !m.streaming)).toBe(true);
    expect(
      words(600)
        .join("")
        .startsWith(messages.map((m) => m.text).join("")),
    ).toBe(true);
  });
});

describe("a lost start's chunks", () => {
  it("a lost start carrying a chunk is continued without sending the chunk again", async () => {
    loseFirstAnswer("chat.startStream");
    const task = { type: "task_update", id: "t1", title: "Searching", status: "in_progress" } as const;
    const { threads } = await streamed(
      async ({ sayStream }) => {
        const streamer = sayStream();
        await streamer.append({ markdown_text: "Let me look. " });
        await streamer.append({ chunks: [task, { type: "markdown_text", text: "Found it." }] });
        await streamer.stop();
      },
      { sweeps: 3 },
    );
    const sentTasks = slack()
      .calls.filter((c) => c.outcome === "ok" && /^chat\.(start|append|stop)Stream$/.test(c.method))
      .flatMap((c) => ((c.body.chunks as { type: string }[] | undefined) ?? []).filter((k) => k.type === "task_update"));
    expect(
      threads()
        .map((m) => m.text)
        .join(""),
    ).toBe("Let me look. Found it.");
    expect(sentTasks.length).toBe(1);
  });
});
