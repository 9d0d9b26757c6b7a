import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { AppMentionEvent } from "@slack/types";
import { isStepCount, jsonSchema, streamText, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import type { EventArgs, RunArgs } from "../../src/app/listeners";
import type { ModelStreamPart, PipedReply } from "../../src/app/streams";
import { CUT_TOO_LONG } from "../../src/app/streams/rotate/replyCaps";
import { channelMessage, messageTs } from "../../src/testing/deliveries";
import { agentSessionStopped } from "../support/assistantPayloads";
import { controlClock } from "../support/clock";
import { newWorkspace, shardStub } from "../support/coordinator";
import { type AnswerRun, problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";
import { eventDelivery, mentionIn } from "../support/inboundOf";
import { latch } from "../support/latch";
import { countedModel, countedStream, finish, mockModel, streamOf, textParts, toolCall } from "../support/mockModel";
import { recordPlanned, shardIn, workspaceShardIn } from "../support/shardIn";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const CHANNEL = "C0MODEL";
const THREAD = "1700000000.000700";

type Handler = (args: RunArgs<EventArgs<AppMentionEvent>>) => Promise<void>;

/** Runs `handler` for one app_mention in a fresh shard through its real delivery loop; the thread's messages after. */
async function answered(handler: Handler, sweeps = 3, settings: Record<string, string> = {}) {
  const clock = controlClock();
  const team = `T${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  const app = new App().event("app_mention", handler);
  const stub = env.SHARD.get(env.SHARD.idFromName(`model-${team}`));
  const counts = await runInDurableObject(stub, async (_, state) => {
    const { outbox, loop } = shardIn(state, { name: `${team}/0`, app, settings: { SLACK_PACING: "false", ...settings } });
    recordPlanned(outbox, app, mentionIn(team, CHANNEL, THREAD, "EvModel"));
    for (let i = 0; i < sweeps; i++) {
      await loop.sweep(Date.now());
      clock.advance(60_000);
    }
    return outbox.countsByStatus();
  });
  return { counts, messages: slack().messagesIn(CHANNEL, THREAD) };
}

/** A search tool whose answer cites a source; `fails` makes it throw instead. */
const searchTool = (fails = false) =>
  tool({
    description: "Searches the docs",
    inputSchema: jsonSchema<{ query: string }>({ type: "object", properties: { query: { type: "string" } } }),
    execute: async ({ query }) => {
      if (fails) throw new Error("the docs are down");
      return { answer: `about ${query}`, sources: [{ url: "https://docs.example.com/streams", title: "Streams" }] };
    },
  });

/** The model looks something up, then answers with what it found. */
const lookingUp = () =>
  mockModel(
    [...textParts("a", "Let me look. "), toolCall("call-1", "search", { query: "streams" }), finish("tool-calls")],
    [...textParts("b", "Found ", "it."), finish()],
  );

describe("sayStream().pipe(result): the AI SDK's streamText into the reply", () => {
  it("appends the model's text deltas into one message", async () => {
    const model = mockModel([...textParts("t", "Hello", ", ", "world", "."), finish()]);
    const { messages, counts } = await answered(async ({ sayStream }) => {
      const stream = sayStream();
      const piped = await stream.pipe(streamText({ model, prompt: "greet" }));
      await stream.stop();
      expect(piped.text).toBe("Hello, world.");
    });
    expect(messages).toMatchObject([{ text: "Hello, world.", streaming: false, chunks: [] }]);
    expect(counts).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("shows a tool call as a task_update, in_progress then complete with its sources, among the text", async () => {
    const model = lookingUp();
    const { messages } = await answered(async ({ sayStream }) => {
      const stream = sayStream();
      await stream.pipe(streamText({ model, prompt: "find it", tools: { search: searchTool() }, stopWhen: isStepCount(2) }), {
        task: (call) => ({ title: `Searching the docs for “${(call.input as { query: string }).query}”` }),
      });
      await stream.stop();
    });
    const title = "Searching the docs for “streams”";
    expect(messages).toMatchObject([
      {
        text: "Let me look. Found it.",
        streaming: false,
        chunks: [
          { type: "task_update", id: "task-1", title, status: "in_progress" },
          {
            type: "task_update",
            id: "task-1",
            title,
            status: "complete",
            sources: [{ type: "url", url: "https://docs.example.com/streams", text: "Streams" }],
          },
        ],
      },
    ]);
    // The task's two updates each went out before the text after them (the timeline's order).
    const sent = slack()
      .calls.filter((call) => /^chat\.(start|append|stop)Stream$/.test(call.method))
      .map((call) => JSON.stringify(call.body));
    const completeAt = sent.findIndex((body) => body.includes('"complete"'));
    expect(completeAt).toBeGreaterThan(-1);
    expect(sent.slice(0, completeAt + 1).some((body) => body.includes("Found"))).toBe(false);
  });

  it("shows a tool that throws as a task in error, and the model's answer goes on", async () => {
    const model = lookingUp();
    const { messages } = await answered(async ({ sayStream }) => {
      const stream = sayStream();
      await stream.pipe(streamText({ model, prompt: "find it", tools: { search: searchTool(true) }, stopWhen: isStepCount(2) }));
      await stream.stop();
    });
    expect(messages).toMatchObject([
      {
        text: "Let me look. Found it.",
        chunks: [
          { type: "task_update", id: "task-1", title: "search", status: "in_progress" },
          { type: "task_update", id: "task-1", title: "search", status: "error" },
        ],
      },
    ]);
  });

  it("a model's error fails the attempt, and the retry answers once", async () => {
    let calls = 0;
    const { messages, counts } = await answered(async ({ sayStream }) => {
      calls++;
      const model =
        calls === 1
          ? mockModel([...textParts("t", "Hello"), { type: "error", error: new Error("the model went away") }])
          : mockModel([...textParts("t", "Hello", ", world."), finish()]);
      const stream = sayStream();
      await stream.pipe(streamText({ model, prompt: "greet", maxRetries: 0, onError: () => {} }));
      await stream.stop();
    });
    expect(calls).toBe(2);
    expect(messages.map((m) => m.text).join("")).toBe("Hello, world.");
    expect(messages.every((m) => !m.streaming)).toBe(true);
    expect(counts).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });
});

/** 4,000 deltas of fifty characters: 200,000 characters, where the reply's cap is 1,000 (its least). */
const LONG = Array.from({ length: 4_000 }, (_, i) => `${`${i}`.padStart(49, "0")} `);
const CAP = { STREAM_MAX_REPLY_CHARS: "1000" };
const SHOWN = `${LONG.join("").slice(0, 1000)}${CUT_TOO_LONG}`;

describe("at the reply's cap, pipe() stops reading the model", () => {
  it("streamText given stream.signal: its request is aborted, its stream cancelled, a few parts read of 4,000", async () => {
    const { model, seen } = countedModel([...textParts("t", ...LONG), finish()]);
    let piped: PipedReply | undefined;
    const { messages, counts } = await answered(
      async ({ sayStream }) => {
        const stream = sayStream();
        const result = streamText({ model, prompt: "go on", abortSignal: stream.signal });
        piped = await stream.pipe(result);
        // Aborted at the cap, streamText's own promises reject with the cap's AbortError.
        await expect(result.text).rejects.toMatchObject({ name: "AbortError" });
        await stream.stop();
      },
      3,
      CAP,
    );
    // Twenty deltas fill the reply, the 21st is cut at the cap; the rest are never pulled from the model.
    expect(seen.pulls).toBeLessThan(40);
    expect(seen.aborted).toBe(true);
    expect(seen.cancelled).toBe(true);
    // What pipe() keeps ends with the delta that reached the cap.
    expect(piped).toEqual({ text: LONG.slice(0, 21).join(""), capped: true });
    expect(messages).toMatchObject([{ text: SHOWN, streaming: false }]);
    expect(counts).toEqual({ pending: 0, parked: 0, stopped: 0 });
  });

  it("a stream of parts: cancelled by pipe() itself, read no further than the cap", async () => {
    const parts = LONG.map((text): ModelStreamPart & { text: string } => ({ type: "text-delta", text }));
    const { stream: model, seen } = countedStream(parts);
    let piped: PipedReply | undefined;
    const { messages } = await answered(
      async ({ sayStream }) => {
        const stream = sayStream();
        piped = await stream.pipe(model);
        await stream.stop();
      },
      3,
      CAP,
    );
    expect(seen.pulls).toBe(21);
    expect(seen.cancelled).toBe(true);
    expect(piped?.text).toHaveLength(1050);
    expect(piped?.capped).toBe(true);
    expect(messages).toMatchObject([{ text: SHOWN, streaming: false }]);
  });

  it("a reply within its cap: the whole stream is read, not capped", async () => {
    const { stream: model, seen } = countedStream(LONG.slice(0, 5).map((text) => ({ type: "text-delta", text })));
    let piped: PipedReply | undefined;
    await answered(
      async ({ sayStream }) => {
        const stream = sayStream();
        piped = await stream.pipe(model);
        await stream.stop();
      },
      3,
      CAP,
    );
    // Five parts and the read that found the end.
    expect(seen).toEqual({ pulls: 6, cancelled: false });
    expect(piped).toEqual({ text: LONG.slice(0, 5).join(""), capped: false });
  });
});

/** A user's message to the agent in a channel of its own: the root of its conversation. */
function question(team: string, text: string) {
  const ts = messageTs();
  const inbound = eventDelivery(team, channelMessage({ text, ts }));
  return { inbound, channel: inbound.conversation!.channel, ts };
}

/**
 * A model that writes a first word and plans (a tool call, answered at once), then goes on
 * generating until its request is aborted: `seen.aborted` says whether the abort reached it.
 */
function endlessModel() {
  const seen = { aborted: false };
  const endless = (abortSignal: AbortSignal | undefined) =>
    new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        abortSignal?.addEventListener("abort", () => {
          seen.aborted = true;
          controller.error(abortSignal.reason);
        });
      },
    });
  let calls = 0;
  const model = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream:
        calls++ === 0
          ? streamOf([...textParts("a", "Thinking"), toolCall("call-1", "plan", {}), finish("tool-calls")])
          : endless(abortSignal),
    }),
  });
  const plan = tool({ inputSchema: jsonSchema({ type: "object" }), execute: async () => ({ planned: true }) });
  return { model, tools: { plan }, seen };
}

describe("the stop button ends the model's generation", () => {
  for (const how of ["abortSignal: signal", "abortSignal: stream.signal", "no abortSignal"] as const)
    it(`with ${how}: the reply's read ends at once, its message is closed, the run stopped`, async () => {
      controlClock();
      const team = newWorkspace();
      const { model, tools, seen } = endlessModel();
      const after: string[] = [];
      const app = new App().message("think", async ({ signal, sayStream }) => {
        const stream = sayStream();
        const result = streamText({
          model,
          tools,
          prompt: "think",
          stopWhen: isStepCount(2),
          ...(how === "no abortSignal" ? {} : { abortSignal: how === "abortSignal: signal" ? signal : stream.signal }),
        });
        // Slack's sample shape: the stop reaches neither the line after the pipe nor the catch.
        try {
          await stream.pipe(result);
          after.push("piped");
        } catch (error) {
          after.push(`caught ${error}`);
        }
      });
      const { channel, ts, inbound } = question(team, "think about it");
      const outcome = await runInDurableObject(shardStub(team), async (_, state) => {
        const shard = await workspaceShardIn(state, { app });
        const settled = latch<string>();
        shard.delivery.events.subscribe((event) => {
          if (event.type === "stopped") settled.open(event.reason);
          if (event.type === "parked") settled.open(`parked: ${event.reason}`);
        });
        await shard.recording.ingest(inbound);
        // The task's last update went out after the start was checkpointed: the stop can name the message.
        await slack().waitFor("chat.appendStream", (call) => JSON.stringify(call.body).includes('"complete"'));
        const [answer] = slack().messagesIn(channel, ts);
        await shard.recording.ingest(eventDelivery(team, agentSessionStopped({ channel, threadTs: ts }, [answer!.ts])));
        // The attempt ends (settled stopped) only once the reply's read has ended.
        const reason = await settled.opened;
        await slack().waitFor("chat.stopStream");
        return { reason, message: slack().message(channel, answer!.ts) };
      });
      // Passed to streamText, the run's signal reaches the model's request; either way the reply's read ends at the stop.
      expect(seen.aborted).toBe(how !== "no abortSignal");
      // The pipe never settles for the code: no next line, no catch.
      expect(after).toEqual([]);
      expect(outcome.message).toMatchObject({ text: "Thinking", streaming: false });
      expect(outcome.reason).toBe("stopped by user");
    });
});

/** About 400 characters of answer, in words, after a search. */
const WORDS = Array.from({ length: 60 }, (_, i) => `word${i} `);

/** The demo's shape of a durable answer: the model, with a tool, piped; feedback under it. A provider's call ids differ per request. */
const searchingApp = () =>
  new App().event("app_mention", async ({ sayStream, signal }) => {
    const model = mockModel(
      [...textParts("a", "Let me look. "), toolCall(crypto.randomUUID(), "search", { query: "x" }), finish("tool-calls")],
      [...textParts("b", ...WORDS), finish()],
    );
    const stream = sayStream({ buffer_size: 64 });
    const result = streamText({
      model,
      prompt: "find it",
      abortSignal: signal,
      tools: { search: searchTool() },
      stopWhen: isStepCount(2),
    });
    await stream.pipe(result);
    await stream.stop({ blocks: [{ type: "context", elements: [{ type: "mrkdwn", text: "model_feedback" }] }] });
  });

const searching: Scenario = {
  name: "searching",
  app: searchingApp(),
  text: `Let me look. ${WORDS.join("")}`,
  blocksMark: "model_feedback",
  vars: { STREAM_MAX_CHARS: "250" },
  makes: ["chat.startStream", "chat.appendStream", "chat.stopStream"],
};

/** The task_update chunks the thread shows, over its messages. */
const tasksShown = (run: AnswerRun) =>
  run.slack.messagesIn(run.channel, run.thread).flatMap((m) => m.chunks.filter((c) => c.type === "task_update"));

describe("a piped answer is durable as any stream", () => {
  it("a run that dies mid-answer is retried: the answer once, complete, its task the same task", async () => {
    const clean = await runAnswer(searching);
    vi.restoreAllMocks();
    expect(problemsOf(searching, clean)).toEqual([]);
    // The calls that carried the task's updates, and the first append after them.
    const opened = clean.slack.calls.findIndex((call) => JSON.stringify(call.body).includes('"in_progress"'));
    const completed = clean.slack.calls.findIndex((call) => JSON.stringify(call.body).includes('"complete"'));
    const after = clean.calls.findIndex((method, n) => n > completed && method === "chat.appendStream");
    // (The tool answers at once: its two updates may share a call.)
    expect(0 < opened && opened <= completed && completed < after).toBe(true);
    for (const died of new Set([opened, completed, after])) {
      const run = await runAnswer(searching, { at: died, fault: "died" });
      vi.restoreAllMocks();
      const why = `died at call ${died}`;
      expect(problemsOf(searching, run), why).toEqual([]);
      // The model's call ids differ per attempt; the task's id is its place in the reply, the same in every update.
      const tasks = tasksShown(run);
      expect(new Set(tasks.map((task) => task.type === "task_update" && task.id)), why).toEqual(new Set(["task-1"]));
      // It ends complete, with its source. An update whose outcome was unknown is sent again in its
      // message (Slack shows a task once, updated by its id): no message's card is left in progress.
      expect(tasks.at(-1), why).toMatchObject({ status: "complete", sources: [{ url: "https://docs.example.com/streams" }] });
      for (const message of run.slack.messagesIn(run.channel, run.thread)) {
        const last = new Map<string, string>();
        for (const chunk of message.chunks) if (chunk.type === "task_update") last.set(chunk.id, chunk.status);
        expect([...last.values()], why).not.toContain("in_progress");
      }
      // Died once both updates were confirmed: the retry sends neither again.
      if (died === after)
        expect(tasks.map((task) => task.type === "task_update" && task.status)).toEqual(["in_progress", "complete"]);
    }
  });
});
