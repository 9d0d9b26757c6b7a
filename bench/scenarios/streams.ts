import { appMention, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { countedTo, countRequest } from "../effects/countedAnswer";
import { type FakeSlackServer, startFakeSlackServer } from "../fakeSlack/fakeSlackServer";
import { highResNow } from "../load/clock";
import { type LatencySummary, summarize } from "../report/latency";
import { ADMIN_TOKEN, oauthSettings, SIGNING_SECRET, type Subject, startSubject } from "../subjects";
import { installWorkspaces } from "./oauthOverhead";

/** What the stream scenarios offer: a rate over several workspaces, then concurrent streams in one. */
export interface StreamPlan {
  perMinute: number;
  durationMs: number;
  workspaces: number;
  /** Each stream counts to `n`, one number per append, `pauseMs` apart (a model's tokens). */
  n: number;
  pauseMs: number;
  concurrent: number;
  /** The longest wait for a scenario's streams to complete. */
  maxWaitMs: number;
}

export interface StreamRun {
  streams: number;
  acked: number;
  /** Read back from the fake: the thread's messages joined are exactly the answer, none streaming. */
  complete: number;
  /** Calls the fake answered 429 (it holds each workspace's token to Slack's tiers). */
  rateLimited: number;
  callsByMethod: Record<string, number>;
  /** From the first request sent to the last stream's completion, s. */
  allDoneS: number | null;
}

export interface StreamFigures {
  plan: StreamPlan;
  atRate: StreamRun & {
    /** From the handler's first append to the fake receiving it (the chat.startStream carrying it), ms. */
    firstAppendToSlack: LatencySummary;
    /** Of that: the handler until its first flush was due (at once), and then the streamer's own time (checkpoint, pacing, the call). */
    bufferFill: LatencySummary;
    flushToSlack: LatencySummary;
    /** (rows written + alarms set) per streamed reply, from the shards' counters; null if a shard's counters restarted. */
    rowsPerReply: number | null;
    rowsWritten: number;
    alarmsSet: number;
  };
  concurrent: StreamRun & {
    /** From the requests (sent at once) to each stream's first text at the fake, ms. */
    firstText: LatencySummary;
    /** The most chat.startStream calls the fake saw in any 60 s. */
    startsInAnyMinute: number;
  };
}

interface Marks {
  firstAppend?: number;
  flushDue?: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const threadKey = (channel: string, threadTs: string) => `${channel}|${threadTs}`;

async function counters(subject: Subject, workspace: string) {
  const response = await fetch(new URL(`/admin/shards/${workspace}/0`, subject.runtime.url), {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const stats = (await response.json()) as {
    outbox: { pending: number };
    counters: { accepted: number; rowsWritten: number; alarmsSet: number };
  };
  return { pending: stats.outbox.pending, ...stats.counters };
}

/** Sends `count` streamed requests, `everyMs` apart, round-robin over `workspaces`; resolves with their threads once all are answered. */
async function offer(subject: Subject, workspaces: readonly string[], count: number, everyMs: number, plan: StreamPlan) {
  const start = Date.now();
  const sent: Array<Promise<{ thread: string; acked: boolean }>> = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * everyMs;
    if (due > Date.now()) await sleep(due - Date.now());
    const channel = `CSTREAM${i % 4}`;
    const mention = appMention({ channel, text: countRequest(plan.n, plan.pauseMs) });
    const teamId = workspaces[i % workspaces.length]!;
    const delivery = await signedEvent(eventCallback(mention, { teamId }), { secret: SIGNING_SECRET });
    const thread = threadKey(channel, String(mention.ts));
    sent.push(
      fetch(new URL("/slack/events", subject.runtime.url), { method: "POST", headers: delivery.headers, body: delivery.body })
        .then(async (response) => {
          await response.arrayBuffer();
          return { thread, acked: response.ok };
        })
        .catch(() => ({ thread, acked: false })),
    );
  }
  return { startedAt: highResNow() - (Date.now() - start), results: await Promise.all(sent) };
}

/** Waits (bounded) until every acked thread reads back its complete answer; returns the run's tally. */
async function settle(fake: FakeSlackServer, threads: readonly string[], startedAt: number, plan: StreamPlan) {
  const expected = countedTo(plan.n);
  const doneAt = new Map<string, number>();
  const deadline = Date.now() + plan.maxWaitMs;
  while (doneAt.size < threads.length && Date.now() < deadline) {
    for (const thread of threads) {
      if (doneAt.has(thread)) continue;
      const [channel, threadTs] = thread.split("|") as [string, string];
      const messages = fake.fake.messagesIn(channel, threadTs).filter((message) => message.thread_ts === threadTs);
      const whole = messages.map((message) => message.text).join("") === expected;
      if (whole && messages.every((message) => !message.streaming)) doneAt.set(thread, highResNow());
    }
    await sleep(200);
  }
  const callsByMethod: Record<string, number> = {};
  for (const call of fake.calls) callsByMethod[call.method] = (callsByMethod[call.method] ?? 0) + 1;
  const last = Math.max(...doneAt.values());
  return {
    complete: doneAt.size,
    rateLimited: fake.calls.filter((call) => call.outcome.startsWith("429")).length,
    callsByMethod,
    allDoneS: doneAt.size === threads.length ? Math.round((last - startedAt) / 100) / 10 : null,
  };
}

/** The first chat.startStream (or chat.postMessage: an answer posted when starts ran out) the fake performed per thread, by arrival. */
function firstStarts(fake: FakeSlackServer): Map<string, number> {
  const starts = new Map<string, number>();
  for (const call of fake.calls) {
    const opens = call.method === "chat.startStream" || call.method === "chat.postMessage";
    if (!opens || call.outcome !== "ok" || !call.channel || !call.threadTs) continue;
    const key = threadKey(call.channel, call.threadTs);
    if (!starts.has(key)) starts.set(key, call.receivedAt);
  }
  return starts;
}

/**
 * The stream figures: `perMinute` streamed replies over `workspaces` (OAuth mode, a token each,
 * the fake holding every token to Slack's tiers) — first append to Slack, rows per reply — then
 * `concurrent` streams at once in one workspace, counting 429s. Pacing on, as deployed.
 */
export async function measureStreams(plan: StreamPlan): Promise<StreamFigures> {
  const fake = await startFakeSlackServer({ fake: { enforceTiers: true } });
  const marks = new Map<string, Marks>();
  const subject = await startSubject({
    name: "coordinator-oauth",
    worker: "coordinatorStreams",
    apiUrl: fake.fake.apiUrl,
    stateDir: "bench/streams",
    settings: { ...oauthSettings(fake.origin), SLACK_PACING: "true" },
    onLog: (_level, message) => {
      if (!message.includes('"bench stream ')) return;
      const mark = JSON.parse(message.slice(message.indexOf("{"))) as {
        msg: string;
        at: number;
        channel: string;
        thread_ts: string;
      };
      const entry = marks.get(threadKey(mark.channel, mark.thread_ts)) ?? {};
      if (mark.msg === "bench stream first append") entry.firstAppend ??= mark.at;
      else entry.flushDue ??= mark.at;
      marks.set(threadKey(mark.channel, mark.thread_ts), entry);
    },
  });
  try {
    const rateTeams = Array.from({ length: plan.workspaces }, (_, i) => `TSTREAM${i}`);
    const concurrentTeam = "TSTREAMS20";
    await installWorkspaces(subject, fake.fake, [...rateTeams, concurrentTeam]);
    // Warm-up, not measured: each workspace's shard exists and has streamed once.
    const warm = await offer(subject, rateTeams, rateTeams.length, 0, plan);
    await settle(
      fake,
      warm.results.map((r) => r.thread),
      warm.startedAt,
      plan,
    );
    await sleep(1000);
    fake.clear();
    marks.clear();

    console.log(`  ${plan.perMinute} streams a minute for ${plan.durationMs / 1000} s over ${plan.workspaces} workspaces …`);
    const before = await Promise.all(rateTeams.map((team) => counters(subject, team)));
    const count = Math.round((plan.perMinute * plan.durationMs) / 60_000);
    const run = await offer(subject, rateTeams, count, 60_000 / plan.perMinute, plan);
    const acked = run.results.filter((r) => r.acked).map((r) => r.thread);
    const tally = await settle(fake, acked, run.startedAt, plan);
    // The completions are written after the last call: wait (bounded) until no row is pending.
    let after = await Promise.all(rateTeams.map((team) => counters(subject, team)));
    for (let i = 0; i < 20 && after.some((c) => c.pending > 0); i++) {
      await sleep(500);
      after = await Promise.all(rateTeams.map((team) => counters(subject, team)));
    }
    const delta = (name: "accepted" | "rowsWritten" | "alarmsSet") =>
      after.reduce((sum, c, i) => sum + c[name] - before[i]![name], 0);
    const starts = firstStarts(fake);
    const gaps = { total: [] as number[], buffer: [] as number[], flush: [] as number[] };
    for (const thread of acked) {
      const mark = marks.get(thread);
      const start = starts.get(thread);
      if (!mark?.firstAppend || start === undefined) continue;
      gaps.total.push(start - mark.firstAppend);
      if (mark.flushDue !== undefined) {
        gaps.buffer.push(mark.flushDue - mark.firstAppend);
        gaps.flush.push(start - mark.flushDue);
      }
    }
    const countersComplete = delta("accepted") === acked.length;
    const atRate = {
      streams: count,
      acked: acked.length,
      ...tally,
      firstAppendToSlack: summarize(gaps.total),
      bufferFill: summarize(gaps.buffer),
      flushToSlack: summarize(gaps.flush),
      rowsPerReply: countersComplete
        ? Math.round(((delta("rowsWritten") + delta("alarmsSet")) / acked.length) * 100) / 100
        : null,
      rowsWritten: delta("rowsWritten"),
      alarmsSet: delta("alarmsSet"),
    };

    fake.clear();
    console.log(`  ${plan.concurrent} streams at once in one workspace (Tier 2: their starts take a minute) …`);
    const burst = await offer(subject, [concurrentTeam], plan.concurrent, 0, plan);
    const burstAcked = burst.results.filter((r) => r.acked).map((r) => r.thread);
    const burstTally = await settle(fake, burstAcked, burst.startedAt, plan);
    const burstStarts = firstStarts(fake);
    const startTimes = fake.calls.filter((c) => c.method === "chat.startStream" && c.outcome === "ok").map((c) => c.receivedAt);
    const concurrent = {
      streams: plan.concurrent,
      acked: burstAcked.length,
      ...burstTally,
      firstText: summarize(burstAcked.map((t) => (burstStarts.get(t) ?? Number.NaN) - burst.startedAt).filter(Number.isFinite)),
      startsInAnyMinute: Math.max(0, ...startTimes.map((at) => startTimes.filter((t) => t >= at && t < at + 60_000).length)),
    };
    return { plan, atRate, concurrent };
  } finally {
    await subject.runtime.stop();
    await fake.close();
  }
}
