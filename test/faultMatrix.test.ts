import { describe, expect, it, vi } from "vitest";
import { App } from "../src/app/App";
import { casesOf, runAnswer, problemsOf, type Scenario } from "./support/faultMatrix";

/**
 * Every fault at every Slack call an answer makes: each call of a clean run (listed by the run
 * itself, so a new call gets its faults for free) is answered lost, refused 500, or is the last
 * act of an attempt that dies; the delivery loop retries, and the thread must show the answer's
 * text exactly once, its final blocks once, nothing streaming, nothing dropped unfinalised.
 */

const FEEDBACK = [
  {
    type: "context_actions",
    elements: [
      {
        type: "feedback_buttons",
        action_id: "matrix_feedback",
        positive_button: { text: { type: "plain_text", text: "Good" }, value: "good" },
        negative_button: { text: { type: "plain_text", text: "Bad" }, value: "bad" },
      },
    ],
  },
];

/** About 700 characters (three messages of STREAM_MAX_CHARS 250), with what Slack escapes in its reads. */
const TOKENS = Array.from({ length: 120 }, (_, i) => (i % 10 === 0 ? `a && <b> ${i} ` : `w${i} `));

function answering(): App {
  return new App().event("app_mention", async ({ sayStream }) => {
    const streamer = sayStream();
    for (const token of TOKENS) await streamer.append({ markdown_text: token });
    await streamer.stop({ blocks: FEEDBACK as never });
  });
}

const streamed: Scenario = {
  name: "streamed",
  app: answering(),
  text: TOKENS.join(""),
  blocksMark: "matrix_feedback",
  vars: { STREAM_MAX_CHARS: "250" },
  makes: ["chat.startStream", "chat.appendStream", "chat.stopStream"],
};

const posted: Scenario = {
  ...streamed,
  name: "posted",
  makes: ["chat.postMessage", "chat.update"],
  app: answering(),
  // Starts exhausted for ten minutes: the answer is posted and updated in place (app/postedAnswer.ts).
  prepare: (slack) => slack.fail({ method: "chat.startStream" }, { status: 429, retryAfter: 600 }, 1_000),
};

/** A retry that answers otherwise from its second message on: its recovery cuts, deletes and replaces (the calls of a truncation). */
const OTHERWISE = [...TOKENS.slice(0, 50), ...Array.from({ length: 120 }, (_, i) => `v${i} `)];
const replaced: Scenario = {
  ...streamed,
  name: "replaced",
  makes: ["chat.delete", "chat.update"],
  text: OTHERWISE.join(""),
  app: new App().event("app_mention", async ({ sayStream, attempt }) => {
    const streamer = sayStream();
    for (const token of attempt === 1 ? TOKENS : OTHERWISE) await streamer.append({ markdown_text: token });
    if (attempt === 1) throw new Error("the first attempt failed before its stop");
    await streamer.stop({ blocks: FEEDBACK as never });
  }),
};

const SCENARIOS = [streamed, posted, replaced];

// The clean runs, at collection: their calls are the matrix (and its size is in the titles).
const clean = new Map<string, string[]>();
for (const scenario of SCENARIOS) clean.set(scenario.name, (await runAnswer(scenario)).calls);
vi.restoreAllMocks();

const sizeOf = (name: string) => `${clean.get(name)!.length} calls x 3 faults = ${clean.get(name)!.length * 3} cases (${name})`;

describe(`fault matrix: ${SCENARIOS.map((s) => sizeOf(s.name)).join(", ")}`, () => {
  for (const scenario of SCENARIOS) {
    const calls = clean.get(scenario.name)!;

    it(`${scenario.name}: a clean run answers exactly, in ${calls.length} calls`, async () => {
      const run = await runAnswer(scenario);
      expect(run.calls).toEqual(calls);
      expect(calls).toEqual(expect.arrayContaining(scenario.makes));
      expect(problemsOf(scenario, run)).toEqual([]);
      expect(run.slack.messagesIn(run.channel, run.thread).length).toBeGreaterThanOrEqual(3);
    });

    it.each(casesOf(scenario, calls))(`${scenario.name}: $fault at call $at ($method)`, async (fault) => {
      const run = await runAnswer(scenario, fault);
      // The run is deterministic up to the fault: the k-th call is the clean run's.
      expect(run.calls[fault.at]).toBe(fault.method);
      expect(problemsOf(scenario, run)).toEqual([]);
    });
  }
});
