import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import type { SlackApp } from "../../src/app/contract/slackApp";
import type { Outbox } from "../../src/recording/outbox";
import { FakeSlack, type Fault } from "../../src/testing/fakeSlack";
import { controlClock } from "./clock";
import { mentionIn } from "./inboundOf";
import { EXPECTED_FAULT } from "./quietExpectedFaults";
import { recordPlanned, shardIn } from "./shardIn";
import { FAKE_SLACK_ORIGIN, LEASE_MS } from "./testBindings";

/**
 * The fault matrix's harness: one answer run from scratch (a fresh shard through its real
 * delivery loop, a fresh fake Slack that reads back text escaped as Slack does, a controlled
 * clock, sweeps until its outbox settles), its Web API calls listed in order, and optionally a
 * fault at its k-th call (and at later ones: recovery's calls, one level deeper):
 * - `lost`: Slack applied the call, and its answer never came back (the connection dropped);
 * - `refused`: Slack answered 500 before applying it;
 * - `died`: Slack applied it and answered, and the attempt is gone right after — its lease is
 *   taken over (as a later sweep takes over an expired one), so every checkpoint it would still
 *   write is fenced out, and nothing it would still send reaches Slack (the isolate is gone).
 *   Like a real lease expiry, it settles nothing: the next attempt has the same `attempt` number;
 * - `unsent` (not in the matrix): the connection failed before Slack got the call, so nothing applied.
 */
export type FaultKind = "lost" | "refused" | "died" | "unsent";
export const FAULT_KINDS: readonly FaultKind[] = ["lost", "refused", "died"];

export interface Scenario {
  name: string;
  app: SlackApp;
  /** The answer's text, as the thread must show it joined over its messages. */
  text: string;
  /** What marks the final blocks in a message's blocks (once in the thread). */
  blocksMark: string;
  vars?: Record<string, string>;
  /** Methods its clean run must call: what the scenario is there to put under faults. */
  makes: string[];
  /** Slack's side before the answer (e.g. starts refused 429, so the answer is posted). */
  prepare?: (slack: FakeSlack) => void;
}

export interface Injected {
  at: number;
  fault: FaultKind;
  /** Slack's side right after the fault (a person deleting the message, say). */
  meanwhile?: (slack: FakeSlack) => Promise<void>;
}

export interface AnswerRun {
  /** Every Web API method called, in order (the clean run's is the matrix's list). */
  calls: string[];
  slack: FakeSlack;
  counts: ReturnType<Outbox["countsByStatus"]>;
  channel: string;
  thread: string;
}

export const CHANNEL = "C0MATRIX";
export const THREAD = "1700000000.000900";
const RUN_KEY = "EvMatrix:run:event:app_mention";
const SWEEPS = 10;
const STEP_MS = 30_000;

/** Slack escapes `&`, `<` and `>` in the text its reads show (the fake stores it as sent). */
const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

async function asSlackShows(method: string, answer: Response): Promise<Response> {
  if (method !== "conversations.replies" && method !== "conversations.history") return answer;
  const body = (await answer.json()) as { messages?: { text?: unknown }[] };
  for (const message of body.messages ?? []) if (typeof message.text === "string") message.text = escaped(message.text);
  return Response.json(body, { status: answer.status });
}

/**
 * A fault of the fake Slack's own kinds drawn for each call as it comes, its method known (chaos'
 * picker, bench/fakeSlack/randomFaults.ts): played by the fake, as `npm run chaos` plays it.
 */
export type FaultPicker = (call: { method: string }) => Fault | undefined;

/** Runs `scenario`'s answer from scratch, with each of `faults` at its call, until its outbox is settled. */
export function runAnswer(scenario: Scenario, ...faults: Injected[]): Promise<AnswerRun> {
  return answerRun(scenario, (n) => faults.find((fault) => fault.at === n));
}

/** Runs `scenario`'s answer from scratch, each call's fault drawn by `pick`, until its outbox is settled. */
export function runAnswerPicked(scenario: Scenario, pick: FaultPicker): Promise<AnswerRun> {
  return answerRun(scenario, () => undefined, pick);
}

async function answerRun(
  scenario: Scenario,
  injectedAt: (n: number) => Injected | undefined,
  pick: FaultPicker = () => undefined,
): Promise<AnswerRun> {
  const clock = controlClock();
  const slack = new FakeSlack(FAKE_SLACK_ORIGIN);
  scenario.prepare?.(slack);
  const calls: string[] = [];
  let dead = false;
  let outbox: Outbox | undefined;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as Request, init);
    if (!slack.serves(request.url)) throw new TypeError(`outbound fetch blocked in tests: ${request.url}`);
    // The attempt is gone: what it would still send never leaves it.
    if (dead) throw new TypeError(`the attempt is gone ${EXPECTED_FAULT}`);
    const method = new URL(request.url).pathname.replace(/^\/api\//, "");
    const n = calls.push(method) - 1;
    const injected = injectedAt(n);
    if (!injected) return asSlackShows(method, await slack.handle(request, request.signal, pick({ method })));
    if (injected.fault === "refused") return Response.json({ ok: false, error: "internal_error" }, { status: 500 });
    if (injected.fault === "unsent") {
      await injected.meanwhile?.(slack);
      throw new TypeError(`Network connection lost. ${EXPECTED_FAULT}`);
    }
    const answer = await slack.fetch(request);
    await injected.meanwhile?.(slack);
    if (injected.fault === "lost") throw new TypeError(`Network connection lost. ${EXPECTED_FAULT}`);
    dead = true;
    // Another attempt owns the run from now on (its lease taken over); it is due at once.
    outbox!.claimBatch("after-the-death", Date.now() + LEASE_MS * 10, LEASE_MS, 10);
    outbox!.postpone(RUN_KEY, "after-the-death", Date.now());
    return asSlackShows(method, answer);
  });
  const stub = env.SHARD.get(env.SHARD.idFromName(`matrix-${crypto.randomUUID()}`));
  const team = "T0MATRIX";
  let counts: AnswerRun["counts"] = { pending: 0, parked: 0, stopped: 0 };
  await runInDurableObject(stub, async (_, state) => {
    const shard = shardIn(state, { name: `${team}/0`, app: scenario.app, settings: { SLACK_PACING: "false", ...scenario.vars } });
    outbox = shard.outbox;
    recordPlanned(outbox, scenario.app, mentionIn(team, CHANNEL, THREAD, "EvMatrix"));
    for (let i = 0; i < SWEEPS; i++) {
      await shard.loop.sweep(Date.now());
      dead = false;
      counts = outbox.countsByStatus();
      if (counts.pending === 0) break;
      clock.advance(STEP_MS);
    }
  });
  return { calls, slack, counts, channel: CHANNEL, thread: THREAD };
}

/** What is wrong with the thread an answer left (empty when it shows the answer exactly, once, finished). */
export function problemsOf(scenario: Scenario, run: AnswerRun): string[] {
  const messages = run.slack.messagesIn(run.channel, run.thread);
  const problems: string[] = [];
  const shown = messages.map((m) => m.text).join("");
  if (shown !== scenario.text) problems.push(`text ${JSON.stringify(shown)}`);
  const marks = messages.map((m) => JSON.stringify(m.blocks ?? []).split(scenario.blocksMark).length - 1);
  if (marks.reduce((a, b) => a + b, 0) !== 1) problems.push(`final blocks ${marks.join("+")} times`);
  for (const m of messages) {
    if (m.streaming) problems.push(`${m.ts} left streaming`);
    const updated = run.slack.callsTo("chat.update").some((call) => call.outcome === "ok" && call.body.ts === m.ts);
    if (m.state === "dropped" && !updated) problems.push(`${m.ts} dropped and not finalised`);
    if (m.text === "" && m.blocks === undefined) problems.push(`${m.ts} empty`);
  }
  if (run.counts.pending + run.counts.parked > 0) problems.push(`outbox ${JSON.stringify(run.counts)}`);
  return problems;
}

/** One case of the matrix: a fault at the k-th call of the clean run. */
export interface FaultCase extends Injected {
  scenario: string;
  method: string;
}

export function casesOf(scenario: Scenario, clean: readonly string[], from = 0): FaultCase[] {
  return clean.flatMap((method, at) =>
    at < from ? [] : FAULT_KINDS.map((fault) => ({ scenario: scenario.name, method, at, fault })),
  );
}
