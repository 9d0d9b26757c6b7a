import { describe, expect, it, vi } from "vitest";
import { App } from "../../src/app/App";
import { postIdOf } from "../../src/slack/postIds";
import { type AnswerRun, CHANNEL, casesOf, type FaultCase, runAnswer, type Scenario } from "../support/faultMatrix";

/**
 * Every fault at every Slack call of a run that posts (issue 29): each call of a clean run is
 * answered lost (Slack applied it, the answer never came), refused 500 (Slack did not), or is the
 * last act of an attempt that dies (its lease taken over); the delivery loop retries, and the
 * channel must show each of the run's messages exactly once — an uncertain post is looked for
 * (by the id in its metadata) before it is posted again. One level deeper: each call a faulted
 * run's recovery makes (the lookups) gets the three faults too.
 */

interface PostScenario extends Scenario {
  /** The texts the channel must show, oldest first, each once. */
  shows: string[];
}

const scenario = (name: string, shows: string[], app: App, makes: string[]): PostScenario => ({
  name,
  app,
  shows,
  makes,
  text: shows.join(""),
  blocksMark: "",
});

/** Two replies in the mention's thread, outside any step: a retry replays both calls. */
const twoReplies = scenario(
  "two replies",
  ["first reply", "second reply"],
  new App().event("app_mention", async ({ event, say }) => {
    await say({ text: "first reply", thread_ts: String(event!.ts) });
    await say({ text: "second reply", thread_ts: String(event!.ts) });
  }),
  ["chat.postMessage"],
);

/** Bolt's placeholder: posted in a step, then updated in place (the chaos run's and the example's answer). */
const placeholder = scenario(
  "placeholder",
  ["Answered"],
  new App().event("app_mention", async ({ event, say, step, client }) => {
    const posted = await step("placeholder", () => say({ text: "Working on it…", thread_ts: String(event!.ts) }));
    await client.chat.update({ channel: String(event!.channel), ts: posted.ts, text: "Answered" });
  }),
  ["chat.postMessage", "chat.update"],
);

/** A top-level post in the channel: looked for with conversations.history instead of replies. */
const inChannel = scenario(
  "in the channel",
  ["top-level answer"],
  new App().event("app_mention", async ({ say }) => {
    await say("top-level answer");
  }),
  ["chat.postMessage"],
);

const SCENARIOS = [twoReplies, placeholder, inChannel];

const clean = new Map<string, AnswerRun>();
for (const s of SCENARIOS) clean.set(s.name, await runAnswer(s));
vi.restoreAllMocks();

/** What the channel shows wrongly (empty when each message is there once, in order, and the outbox is settled). */
function problemsOf(s: PostScenario, run: AnswerRun): string[] {
  const shown = run.slack.messagesIn(CHANNEL).map((m) => m.text);
  const problems = JSON.stringify(shown) === JSON.stringify(s.shows) ? [] : [`shows ${JSON.stringify(shown)}`];
  if (run.counts.pending + run.counts.parked > 0) problems.push(`outbox ${JSON.stringify(run.counts)}`);
  return problems;
}

function faultedProblems(s: PostScenario, run: AnswerRun, faults: FaultCase[]): string[] {
  const strayed = faults.filter((fault) => run.calls[fault.at] !== fault.method);
  if (strayed.length > 0) return strayed.map((fault) => `call ${fault.at} was ${run.calls[fault.at]}, not ${fault.method}`);
  return problemsOf(s, run);
}

const nameOf = (fault: FaultCase) => `${fault.fault} at call ${fault.at} (${fault.method})`;
const LOOKUPS = ["conversations.replies", "conversations.history"];

describe("posts under every fault: each message once", () => {
  for (const s of SCENARIOS) {
    const calls = clean.get(s.name)!.calls;

    it(`${s.name}: a clean run posts each message once, named in its metadata, and looks nothing up`, async () => {
      const run = await runAnswer(s);
      expect(run.calls).toEqual(calls);
      expect(calls).toEqual(expect.arrayContaining(s.makes));
      expect(calls.filter((method) => LOOKUPS.includes(method))).toEqual([]);
      expect(problemsOf(s, run)).toEqual([]);
      const ids = run.slack.callsTo("chat.postMessage").map((call) => postIdOf(call.body));
      expect(ids.every((id) => id?.startsWith("EvMatrix:run:event:app_mention#"))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it(`${s.name}: ${calls.length} calls x 3 faults, then each recovery call x 3 faults`, async () => {
      const failed: Record<string, string[]> = {};
      let deeperCases = 0;
      for (const first of casesOf(s, calls)) {
        const run = await runAnswer(s, first);
        const problems = faultedProblems(s, run, [first]);
        if (problems.length > 0) {
          failed[nameOf(first)] = problems;
          continue;
        }
        for (const second of casesOf(s, run.calls, first.at + 1).filter((c) => !calls.includes(c.method))) {
          deeperCases++;
          const deeper = await runAnswer(s, first, second);
          const again = faultedProblems(s, deeper, [first, second]);
          if (again.length > 0) failed[`${nameOf(first)}, then ${nameOf(second)}`] = again;
        }
      }
      expect(failed).toEqual({});
      // The faults that leave a post uncertain made the recovery look it up: there were lookups to fault.
      expect(deeperCases).toBeGreaterThan(0);
    }, 120_000);
  }
});
