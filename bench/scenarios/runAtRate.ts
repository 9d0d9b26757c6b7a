import { effectsByThread } from "../effects/threadEffects";
import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import { threadOf } from "../load/mentions";
import { type LatencySummary, summarize } from "../report/latency";
import { endProgress, showProgress } from "../report/progress";
import { SIGNING_SECRET, type Subject, type SubjectName } from "../subjects";
import type { BenchContext } from "./benchContext";
import { backlogSeconds, isSustained } from "./sustained";

export interface RunResult {
  subject: SubjectName;
  /** Offered events per second, and for how long. */
  rate: number;
  durationS: number;
  workspaces: number;
  sent: number;
  acked: number;
  non2xx: number;
  /** Of the non-2xx: no answer within the client timeout, or a connection error. */
  noAnswer: number;
  /** The non-2xx by cause: the HTTP status, or why there was no answer (`timeout`, `ECONNRESET`, …). */
  failures: Record<string, number>;
  /** From each request's scheduled send time to its answer, ms. */
  ack: LatencySummary;
  /** From the ack to the fake receiving the event's reply (its first chat.postMessage) — in relay mode, the relayed request — ms. */
  delivery: LatencySummary | null;
  /** From the ack to the event's last effect call (a chat.update of the reply, when the app makes one), ms. */
  completion: LatencySummary | null;
  /** Acked events with no reply within the bounded wait. */
  undelivered: number | null;
  /** Share of one core the load generator used: near 1.0 means the generator, not the subject, was the limit. */
  generatorCpu: number;
  /** CPU of the subject's runtime per offered event, ms, backlog included; null if the runtime restarted meanwhile. */
  runtimeCpuMsPerEvent: number | null;
  /** Its workerd crashed and Miniflare started a new one during the run (e.g. out of file descriptors). */
  runtimeRestarted: boolean;
  /** Replies still owed when the offered load ended, in seconds of traffic (scenarios/sustained.ts); null for a subject that sends none. */
  backlogS: number | null;
  /** Acks, replies and backlog within the rule of scenarios/sustained.ts (SUSTAINED_RULE). */
  sustained: boolean;
}

/** Bounded wait for the replies of every acked event to reach the fake Web API. */
const DELIVERY_WAIT_MS = 30_000;
/** Quiet time (no new call) that marks a subject done with its effects, so the next run starts on an idle machine. */
const QUIET_MS = 500;

/**
 * Waits (bounded) until the fake has seen every thread's first effect — a reply, or the relayed
 * request — and then a quiet moment, so the run's work is done.
 */
async function waitForEffects(
  context: BenchContext,
  threads: Set<string>,
  firstEffects: () => Map<string, unknown>,
): Promise<void> {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  let seenCalls = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    if (context.fake.calls.length !== seenCalls) {
      seenCalls = context.fake.calls.length;
      quietSince = Date.now();
      continue;
    }
    if (Date.now() - quietSince < QUIET_MS) continue;
    const seen = firstEffects();
    if ([...threads].every((thread) => seen.has(thread))) return;
  }
}

/** Each thread's reply (its first chat.postMessage Slack would have performed). */
function firstReplies(context: BenchContext): Map<string, ServedCall> {
  const replies = new Map<string, ServedCall>();
  for (const [thread, effects] of effectsByThread(context.fake.calls))
    if (effects.posts[0]) replies.set(thread, effects.posts[0]);
  return replies;
}

/** Each thread's relayed request (relay mode: the mention's envelope POSTed to /relay, answered 200). */
function firstRelays(context: BenchContext): Map<string, ServedCall> {
  const relays = new Map<string, ServedCall>();
  for (const call of context.fake.calls) {
    if (call.method !== "relay" || call.outcome !== "ok" || !call.channel || !call.ts) continue;
    const thread = threadOf(call.channel, call.ts);
    if (!relays.has(thread)) relays.set(thread, call);
  }
  return relays;
}

/** A subject is idle once its runtime uses under 5 % of a core over a second; waited for at most this long. */
const IDLE_WAIT_MS = 120_000;

/**
 * Waits until the subject's runtime has finished the work the run left (an overloaded run leaves
 * a backlog of deliveries), so the next run — of any subject — starts on an idle machine.
 */
async function waitUntilIdle(subject: Subject): Promise<void> {
  const deadline = Date.now() + IDLE_WAIT_MS;
  let before = subject.cpuMs();
  while (Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 1000));
    const now = subject.cpuMs();
    // NaN: its workerd was just replaced; the next reading follows the new one.
    if (now - before < 50) return;
    before = now;
  }
}

/** One open-loop run against one subject, then its replies collected and the fake cleared. */
export async function runAtRate(
  context: BenchContext,
  subject: Subject,
  options: { rate: number; durationMs: number; workspaces: readonly string[] },
): Promise<RunResult> {
  const label = `${subject.name} @ ${options.rate}/s, ${options.workspaces.length} workspace${options.workspaces.length > 1 ? "s" : ""}`;
  const total = Math.round((options.rate * options.durationMs) / 1000);
  context.fake.clear();
  const cpuBefore = subject.cpuMs();
  const restartsBefore = subject.logs.runtimeRestarts;
  const { samples, generatorCpu } = await context.load.run(
    {
      url: new URL("/slack/events", subject.runtime.url).href,
      rate: options.rate,
      durationMs: options.durationMs,
      workspaces: [...options.workspaces],
      secret: SIGNING_SECRET,
      runId: context.nextRunId(),
      timeoutMs: 10_000,
    },
    (progress) => showProgress(label, progress, total),
  );

  const acked = samples.filter((s) => s.status >= 200 && s.status < 300);
  const firstEffects = subject.sendsReplies ? firstReplies : subject.relays ? firstRelays : undefined;
  if (firstEffects) await waitForEffects(context, new Set(acked.map((s) => s.thread)), () => firstEffects(context));
  await waitUntilIdle(subject);
  const runtimeCpuMs = subject.cpuMs() - cpuBefore;
  const runtimeRestarted = subject.logs.runtimeRestarts !== restartsBefore || Number.isNaN(runtimeCpuMs);

  let delivery: LatencySummary | null = null;
  let completion: LatencySummary | null = null;
  let undelivered: number | null = null;
  let backlogS: number | null = null;
  if (firstEffects) {
    const threads = effectsByThread(context.fake.calls);
    const firsts = firstEffects(context);
    const toFirst: number[] = [];
    const toLast: number[] = [];
    for (const sample of acked) {
      const first = firsts.get(sample.thread);
      if (!first) continue;
      toFirst.push(first.receivedAt - sample.settledAt);
      const last = threads.get(sample.thread)?.updates.at(-1) ?? first;
      toLast.push(last.receivedAt - sample.settledAt);
    }
    delivery = summarize(toFirst);
    completion = summarize(toLast);
    undelivered = acked.length - toFirst.length;
    backlogS = backlogSeconds(acked, (thread) => firsts.get(thread)?.receivedAt, options.rate);
  }
  context.fake.clear();

  const ack = summarize(samples.map((s) => s.settledAt - s.scheduledAt));
  const non2xx = samples.length - acked.length;
  const result: RunResult = {
    subject: subject.name,
    rate: options.rate,
    durationS: options.durationMs / 1000,
    workspaces: options.workspaces.length,
    sent: samples.length,
    acked: acked.length,
    non2xx,
    noAnswer: samples.filter((s) => s.status === 0).length,
    failures: countFailures(samples),
    ack,
    delivery,
    completion,
    undelivered,
    generatorCpu: Math.round(generatorCpu * 100) / 100,
    runtimeCpuMsPerEvent: runtimeRestarted ? null : Math.round((runtimeCpuMs / Math.max(samples.length, 1)) * 100) / 100,
    runtimeRestarted,
    backlogS,
    sustained: isSustained({ non2xx, ack, delivery, backlogS }),
  };
  endProgress(
    `${label}: ack p50 ${ack.p50} / p99 ${ack.p99} ms, ${non2xx} non-2xx${delivery ? `, ${subject.relays ? "relayed" : "reply"} p99 ${delivery.p99} ms after the ack, ${backlogS} s of replies owed at the end` : ""}${result.sustained ? "" : "  (not sustained)"}${runtimeRestarted ? "  (workerd crashed and was restarted)" : ""}`,
  );
  return result;
}

function countFailures(samples: ReadonlyArray<{ status: number; failure?: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const sample of samples) {
    if (sample.status >= 200 && sample.status < 300) continue;
    const cause = sample.status === 0 ? (sample.failure ?? "no answer") : String(sample.status);
    counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}
