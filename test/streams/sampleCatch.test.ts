import { isStepCount, jsonSchema, streamText, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { type AnswerRun, FAULT_KINDS, problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";
import { finish, mockModel, textParts, toolCall } from "../support/mockModel";

const WORDS = Array.from({ length: 40 }, (_, i) => `word${i} `);
const FEEDBACK = "sample_feedback";

/** How often the tool's own work ran, over every attempt of a run. */
let lookups = 0;
/** What the listener's catch saw. */
let caught: string[] = [];

/**
 * Slack's bolt-js-starter-agent listener shape, with the AI SDK as its model: a status, the
 * model's stream (a tool whose work is a step) piped into `sayStream`, feedback under it — all in
 * the sample's `try { … } catch (e) { say(":warning: Something went wrong! …") }`.
 */
const app = new App().event("app_mention", async ({ event, say, sayStream, setStatus, signal, step }) => {
  try {
    await setStatus({ status: "Thinking…", loading_messages: ["Consulting the office goldfish…"] });
    const model = mockModel(
      [...textParts("a", "Let me look. "), toolCall(crypto.randomUUID(), "lookup", { query: "x" }), finish("tool-calls")],
      [...textParts("b", ...WORDS), finish()],
    );
    const result = streamText({
      model,
      prompt: String(event.text),
      abortSignal: signal,
      stopWhen: isStepCount(2),
      tools: {
        lookup: tool({
          description: "Looks it up",
          inputSchema: jsonSchema<{ query: string }>({ type: "object", properties: { query: { type: "string" } } }),
          // The tool's work is a step: a retried run gets its result back instead of doing it again.
          execute: ({ query }) =>
            step(`tool:lookup:${query}`, async () => {
              lookups++;
              return { answer: `about ${query}` };
            }),
        }),
      },
    });
    const streamer = sayStream({ buffer_size: 64 });
    await streamer.pipe(result);
    await streamer.stop({ blocks: [{ type: "context", elements: [{ type: "mrkdwn", text: FEEDBACK }] }] });
  } catch (e) {
    caught.push(String(e));
    await say({ text: `:warning: Something went wrong! (${e})`, thread_ts: event.thread_ts || event.ts });
  }
});

const scenario: Scenario = {
  name: "sample",
  app,
  text: `Let me look. ${WORDS.join("")}`,
  blocksMark: FEEDBACK,
  makes: ["chat.startStream", "chat.appendStream", "chat.stopStream"],
};

/**
 * The task cards the thread shows, message by message (a card's last status in each message that
 * has it): none may be left `in_progress`, in a message closed early either.
 */
const lastTaskStatuses = (run: AnswerRun) =>
  run.slack.messagesIn(run.channel, run.thread).flatMap((message) => {
    const last = new Map<string, string>();
    for (const chunk of message.chunks) if (chunk.type === "task_update") last.set(chunk.id, chunk.status);
    return [...last.values()];
  });

describe("Slack's sample listener, its stream under its own try/catch", () => {
  it("answers once, whole, its task complete, its tool run once (a step), whatever fault meets any stream call", async () => {
    lookups = 0;
    caught = [];
    const clean = await runAnswer(scenario);
    vi.restoreAllMocks();
    expect(problemsOf(scenario, clean)).toEqual([]);
    expect(lookups).toBe(1);
    const streamCalls = clean.calls.flatMap((method, at) =>
      method.startsWith("chat.") && method.includes("Stream") ? [at] : [],
    );
    expect(streamCalls.length).toBeGreaterThan(2);
    for (const at of streamCalls)
      for (const fault of FAULT_KINDS) {
        lookups = 0;
        caught = [];
        const run = await runAnswer(scenario, { at, fault });
        vi.restoreAllMocks();
        const why = `${fault} at call ${at} (${clean.calls[at]})`;
        expect(problemsOf(scenario, run), why).toEqual([]);
        // Not one message of the sample's catch: the fault ended the attempt past it, and the retry answered.
        expect(caught, why).toEqual([]);
        expect(
          run.slack.callsTo("chat.postMessage").map((call) => call.body.text),
          why,
        ).toEqual([]);
        expect(lastTaskStatuses(run), why).toEqual(["complete"]);
        // An attempt whose lease was taken over at the fault ("died") cannot record its step: the
        // run that took over may do the tool's work again (at least once). Otherwise: once.
        if (fault === "died") expect(lookups, why).toBeLessThanOrEqual(2);
        else expect(lookups, why).toBe(1);
      }
    // Some thirty answers from scratch, each in a fresh shard: ~2–3 s on an idle machine.
  }, 30_000);
});
