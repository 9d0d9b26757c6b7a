import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { type AnswerRun, CHANNEL, casesOf, type FaultCase, runAnswer, type Scenario } from "../support/faultMatrix";

/**
 * Every fault at every Slack call of a run that suspends itself: each call of a clean run is
 * answered lost (Slack applied it, the answer never came), refused 500, or is the last act of an
 * attempt that dies (its lease taken over). The run is retried and resumed by the delivery loop's
 * sweeps (30 s apart): the thread must show each of its messages exactly once — the question of a
 * wait included, whose post a retry must not repeat — and the outbox must settle.
 */

interface SuspendingScenario extends Scenario {
  shows: string[];
}

const scenario = (name: string, shows: string[], app: App, makes: string[]): SuspendingScenario => ({
  name,
  app,
  shows,
  makes,
  text: shows.join(""),
  blocksMark: "",
});

/** A question nobody answers: asked once, then (its 10 s over at the next sweep) one "no answer". */
const unanswered = scenario(
  "a question that times out",
  ["Shall I?", "No answer: nothing done."],
  new App().event("app_mention", async ({ say, event, waitForAction }) => {
    const answer = await waitForAction("confirm", {
      text: "Shall I?",
      buttons: [{ text: "Yes", value: "yes" }],
      timeoutMs: 10_000,
    });
    if (answer.timedOut) await say({ text: "No answer: nothing done.", thread_ts: String(event!.ts) });
  }),
  ["chat.postMessage"],
);

/** A reminder: one message, a durable sleep, then the other. */
const reminder = scenario(
  "a sleep between two messages",
  ["I will remind you.", "Reminder: stretch."],
  new App().event("app_mention", async ({ say, step, sleep, event }) => {
    const thread_ts = String(event!.ts);
    await step("told", () => say({ text: "I will remind you.", thread_ts }));
    await sleep("reminder", 10_000);
    await say({ text: "Reminder: stretch.", thread_ts });
  }),
  ["chat.postMessage"],
);

const SCENARIOS = [unanswered, reminder];

const clean = new Map<string, AnswerRun>();
for (const s of SCENARIOS) clean.set(s.name, await runAnswer(s));
vi.restoreAllMocks();

function problemsOf(s: SuspendingScenario, run: AnswerRun, faults: FaultCase[] = []): string[] {
  const strayed = faults.filter((fault) => run.calls[fault.at] !== fault.method);
  if (strayed.length > 0) return strayed.map((fault) => `call ${fault.at} was ${run.calls[fault.at]}, not ${fault.method}`);
  const shown = run.slack.messagesIn(CHANNEL, run.thread).map((m) => m.text);
  const problems = JSON.stringify(shown) === JSON.stringify(s.shows) ? [] : [`shows ${JSON.stringify(shown)}`];
  if (run.counts.pending + run.counts.parked > 0) problems.push(`outbox ${JSON.stringify(run.counts)}`);
  return problems;
}

const nameOf = (fault: FaultCase) => `${fault.fault} at call ${fault.at} (${fault.method})`;

describe("suspended runs under every fault: each message once", () => {
  for (const s of SCENARIOS) {
    const calls = clean.get(s.name)!.calls;

    it(`${s.name}: a clean run shows each message once, settles, and looks nothing up (its posts are checkpointed)`, () => {
      expect(calls).toEqual(expect.arrayContaining(s.makes));
      expect(calls.filter((method) => method.startsWith("conversations."))).toEqual([]);
      expect(problemsOf(s, clean.get(s.name)!)).toEqual([]);
    });

    it(`${s.name}: ${calls.length} calls x 3 faults`, async () => {
      const failed: Record<string, string[]> = {};
      for (const fault of casesOf(s, calls)) {
        const problems = problemsOf(s, await runAnswer(s, fault), [fault]);
        if (problems.length > 0) failed[nameOf(fault)] = problems;
      }
      expect(failed).toEqual({});
    }, 120_000);
  }
});
