import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { type AnswerRun, casesOf, type FaultCase, problemsOf, runAnswer, type Scenario } from "../support/faultMatrix";

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
  // Starts exhausted for ten minutes: the answer is posted and updated in place (app/streams/send/postedKind.ts).
  prepare: (slack) => slack.fail({ method: "chat.startStream" }, { status: 429, retryAfter: 600 }, 1_000),
};

/** An answer that fails on its first attempt before its stop, and whose retry answers `retried` instead. */
function retriedOtherwise(retried: string[]): App {
  return new App().event("app_mention", async ({ sayStream, attempt }) => {
    const streamer = sayStream();
    for (const token of attempt === 1 ? TOKENS : retried) await streamer.append({ markdown_text: token });
    if (attempt === 1) throw new Error("the first attempt failed before its stop");
    await streamer.stop({ blocks: FEEDBACK as never });
  });
}

/**
 * A retry that answers otherwise inside its first message, which the checkpoint keeps sealed
 * (length and hash: app/streams/record/sealing.ts): its recovery deletes every message from there on
 * and answers again (the calls of a truncation by deletes).
 */
const REPLACED = [...TOKENS.slice(0, 50), ...Array.from({ length: 120 }, (_, i) => `v${i} `)];
const replaced: Scenario = {
  ...streamed,
  name: "replaced",
  makes: ["chat.delete"],
  text: REPLACED.join(""),
  app: retriedOtherwise(REPLACED),
};

/** A retry that answers otherwise inside its last message, whose text the checkpoint keeps: it is cut there in place (chat.update). */
const CUT = [...TOKENS.slice(0, 106), ...Array.from({ length: 60 }, (_, i) => `v${i} `)];
const cut: Scenario = {
  ...streamed,
  name: "cut",
  makes: ["chat.update"],
  text: CUT.join(""),
  app: retriedOtherwise(CUT),
};

const SCENARIOS = [streamed, posted, replaced, cut];

// The clean runs, at collection: their calls are the matrix (and its size is in the titles).
const clean = new Map<string, string[]>();
for (const scenario of SCENARIOS) clean.set(scenario.name, (await runAnswer(scenario)).calls);
vi.restoreAllMocks();

const sizes = SCENARIOS.map(
  ({ name }) => `${clean.get(name)!.length} calls x 3 faults = ${clean.get(name)!.length * 3} cases (${name})`,
);
const total = SCENARIOS.reduce((sum, { name }) => sum + clean.get(name)!.length * 3, 0);

const nameOf = (fault: FaultCase) => `${fault.fault} at call ${fault.at} (${fault.method})`;

/** The thread's problems; first, that the run is the same as before up to each fault (the k-th call is the one faulted). */
function faultedProblems(scenario: Scenario, run: AnswerRun, faults: FaultCase[]): string[] {
  const strayed = faults.filter((fault) => run.calls[fault.at] !== fault.method);
  if (strayed.length > 0) return strayed.map((fault) => `call ${fault.at} was ${run.calls[fault.at]}, not ${fault.method}`);
  return problemsOf(scenario, run);
}

interface Faulted {
  fault: FaultCase;
  calls: string[];
  problems: string[];
}

/** Every case of `scenario`'s matrix, run once (the deeper level starts from these runs, even run alone). */
const firstLevel = new Map<string, Promise<Faulted[]>>();
function matrixOf(scenario: Scenario): Promise<Faulted[]> {
  let runs = firstLevel.get(scenario.name);
  if (!runs) {
    runs = (async () => {
      const faulted: Faulted[] = [];
      for (const fault of casesOf(scenario, clean.get(scenario.name)!)) {
        const run = await runAnswer(scenario, fault);
        faulted.push({ fault, calls: run.calls, problems: faultedProblems(scenario, run, [fault]) });
      }
      return faulted;
    })();
    firstLevel.set(scenario.name, runs);
  }
  return runs;
}

// One test per scenario runs all its cases: its name carries the size, and its run (seconds) is
// always listed by vitest's reporter, which lists passing tests only when slow.
describe(`fault matrix: ${total} cases`, () => {
  for (const [n, scenario] of SCENARIOS.entries()) {
    const calls = clean.get(scenario.name)!;

    it(`${scenario.name}: a clean run answers exactly, in ${calls.length} calls`, async () => {
      const run = await runAnswer(scenario);
      expect(run.calls).toEqual(calls);
      expect(calls).toEqual(expect.arrayContaining(scenario.makes));
      expect(problemsOf(scenario, run)).toEqual([]);
      expect(run.slack.messagesIn(run.channel, run.thread).length).toBeGreaterThanOrEqual(3);
    });

    it(`fault matrix: ${sizes[n]}`, async () => {
      const failed = (await matrixOf(scenario)).filter(({ problems }) => problems.length > 0);
      expect(Object.fromEntries(failed.map(({ fault, problems }) => [nameOf(fault), problems]))).toEqual({});
    }, 60_000);

    it(`fault matrix, one level deep: each call of a faulted run's recovery that no clean run makes, x 3 faults (${scenario.name})`, async () => {
      const failed: Record<string, string[]> = {};
      let cases = 0;
      // Calls no clean run makes (recovery's lookups, finalising updates, deletes) of each run that recovered.
      for (const { fault: first, calls: faulted } of (await matrixOf(scenario)).filter(({ problems }) => problems.length === 0)) {
        const deeper = casesOf(scenario, faulted, first.at + 1).filter((second) => !calls.includes(second.method));
        for (const second of deeper) {
          cases++;
          const run = await runAnswer(scenario, first, second);
          const problems = faultedProblems(scenario, run, [first, second]);
          if (problems.length > 0) failed[`${nameOf(first)}, then ${nameOf(second)}`] = problems;
        }
      }
      expect(cases).toBeGreaterThan(0);
      expect(failed).toEqual({});
    }, 60_000);
  }
});
