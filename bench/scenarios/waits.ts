import { appMention, blockActions, eventCallback, messageTs, signedEvent, signedInteraction } from "../../src/testing/deliveries";
import { type FakeSlackServer, type ServedCall, startFakeSlackServer } from "../fakeSlack/fakeSlackServer";
import { highResNow } from "../load/clock";
import { type LatencySummary, summarize } from "../report/latency";
import { ADMIN_TOKEN, SIGNING_SECRET, type Subject, startSubject } from "../subjects";

/** What the durable-waits scenario offers (issue 30, point 7). */
export interface WaitPlan {
  /** `count to 40` answers measured on the idle coordinator, then again beside the suspended runs. */
  answers: number;
  answerCount: number;
  /** Runs left waiting for a click (`count to questionCount`, over 500: the demo asks first) … */
  questions: number;
  questionCount: number;
  /** … and runs left asleep (`remind me in sleepersS seconds`), long enough to outlast the scenario. */
  sleepers: number;
  sleepersS: number;
  /** The questions' runs are clicked "no", one every clickEveryMs. */
  clickEveryMs: number;
  /** Short reminders whose lateness is measured: S = timerMinS … timerMaxS seconds, staggered. */
  timers: number;
  timerMinS: number;
  timerMaxS: number;
  /** Cycles per kind counted on the metered build (question → click → resume, sleep → wake, and each without its wait). */
  rowCycles: number;
  /** The demo model's pace (DEMO_COUNT_INTERVAL_MS), ms per number. */
  countIntervalMs: number;
  /** The longest any one wait for Slack calls lasts. */
  maxWaitMs: number;
}

export const WAIT_PLAN: WaitPlan = {
  answers: 20,
  answerCount: 40,
  questions: 50,
  questionCount: 1000,
  sleepers: 50,
  sleepersS: 600,
  clickEveryMs: 100,
  timers: 50,
  timerMinS: 2,
  timerMaxS: 5,
  rowCycles: 5,
  countIntervalMs: 10,
  maxWaitMs: 30_000,
};

export interface AnswerSet {
  answered: number;
  /** The mention's ack → the fake receiving the answer's chat.startStream (its first text or status), ms. */
  toFirstStreamCall: LatencySummary;
  /** The mention's ack → the fake receiving the answer's chat.stopStream, ms. */
  toStop: LatencySummary;
}

export interface StatementRows {
  statement: string;
  calls: number;
  rowsWritten: number;
}

export interface CycleRows {
  kind: string;
  cycles: number;
  /** (rows written + alarms set) per cycle: the tally's statements (per-minute tables apart) and the shard's alarms. */
  rowsPerCycle: number;
  /** The shard's own counters over the cycles (alarms may include the metrics minute's). */
  rowsWritten: number;
  alarmsSet: number;
  /** The same per SQL statement (the metered build's tally), per-minute tables (metrics, registry, guard) apart. */
  perStatement: Array<StatementRows & { perCycle: number }>;
  perMinuteRows: number;
  /** Rows the statements on the `waits` table wrote, per cycle. */
  waitsTableRows: number;
}

export interface WaitFigures {
  plan: WaitPlan;
  idle: AnswerSet;
  loaded: AnswerSet & { questionsWaiting: number; sleepersAsleep: number; outboxPending: number | null };
  /** loaded / idle, p50 and p99, for each figure. */
  ratio: { toFirstStreamCall: { p50: number | null; p99: number | null }; toStop: { p50: number | null; p99: number | null } };
  clicks: {
    sent: number;
    acked: number;
    ack: LatencySummary;
    /** The click's send → the resumed run's chat.startStream ("All right, I will not count."). */
    toResume: LatencySummary;
    /** The click's send → that answer's chat.stopStream. */
    toStop: LatencySummary;
    /** Sleepers still asleep once the clicks' answers are in (none may have woken). */
    sleepersStillAsleep: number;
  };
  timers: {
    sent: number;
    reminded: number;
    /** The "Reminder: X" post at the fake − (the mention's ack + S s), ms. */
    lateness: LatencySummary;
  };
  rows: {
    question: CycleRows;
    questionless: CycleRows;
    sleep: CycleRows;
    sleepless: CycleRows;
    /** question − questionless, sleep − sleepless (rows per cycle, counters). */
    waitCosts: number;
    sleepCosts: number;
  } | null;
  coordinatorLogErrors: string[];
  wallS: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const threadKey = (channel: string, threadTs: string) => `${channel}|${threadTs}`;
const CHANNEL = "CWAITS";
/** The per-minute tables whatever the traffic (metrics, the watch's registry, the guard's tallies): not a cycle's own. */
const PER_MINUTE_TABLES = /\b(metric_minutes|shard_registry|answer_counts|guard_state)\b/;
const WAIT_BLOCK = /^durable_wait:/;

/** Settings as `npm start` serves the demo (AGENT_SESSIONS=true), with a fast model. */
function demoSettings(plan: WaitPlan): Record<string, string> {
  return { AGENT_SESSIONS: "true", DEMO_COUNT_INTERVAL_MS: String(plan.countIntervalMs), DEMO_CONFIRM_TIMEOUT_MS: "600000" };
}

interface Mentioned {
  thread: string;
  threadTs: string;
  sentAt: number;
  ackedAt: number | null;
}

async function mention(subject: Subject, team: string, text: string): Promise<Mentioned> {
  const event = appMention({ channel: CHANNEL, text: `<@U0000BOT> ${text}` });
  const threadTs = String(event.ts);
  const delivery = await signedEvent(eventCallback(event, { teamId: team }), { secret: SIGNING_SECRET });
  const sentAt = highResNow();
  let ackedAt: number | null = null;
  try {
    const response = await fetch(new URL("/slack/events", subject.runtime.url), {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await response.arrayBuffer();
    if (response.ok) ackedAt = highResNow();
  } catch {
    // Unacked: counted as such.
  }
  return { thread: threadKey(CHANNEL, threadTs), threadTs, sentAt, ackedAt };
}

/** The fake's calls in a thread: posts and starts name the thread; stops and appends name the stream's ts. */
function callsIn(fake: FakeSlackServer, thread: string): ServedCall[] {
  const starts = new Set<string>();
  const found: ServedCall[] = [];
  for (const call of fake.calls) {
    if (call.outcome !== "ok" || !call.channel) continue;
    const inThread = call.threadTs !== undefined && threadKey(call.channel, call.threadTs) === thread;
    if (inThread && call.method === "chat.startStream" && call.answerTs) starts.add(call.answerTs);
    if (inThread || (call.ts !== undefined && starts.has(call.ts))) found.push(call);
  }
  return found;
}

function firstCall(fake: FakeSlackServer, thread: string, method: string, after = 0): ServedCall | undefined {
  return callsIn(fake, thread).find((call) => call.method === method && call.receivedAt >= after);
}

/** Polls (bounded) until `done` holds; returns whether it did. */
async function until(done: () => boolean, maxWaitMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + maxWaitMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

/** Session statuses the fake was sent, by thread: the last one wins. */
function sessionStatuses(fake: FakeSlackServer): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const call of fake.fake.calls) {
    if (call.method !== "agents.sessions.setStatus" || call.outcome !== "ok") continue;
    const { channel_id, thread_ts, status } = call.body as Record<string, unknown>;
    if (typeof channel_id === "string" && typeof thread_ts === "string" && typeof status === "string")
      statuses.set(threadKey(channel_id, thread_ts), status);
  }
  return statuses;
}

/** `count to N` answers, one after another (each waited for, then 100 ms): ack → first stream call, ack → stop. */
async function answers(subject: Subject, fake: FakeSlackServer, team: string, plan: WaitPlan, count: number): Promise<AnswerSet> {
  const first: number[] = [];
  const stop: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = await mention(subject, team, `count to ${plan.answerCount}`);
    if (sent.ackedAt !== null) {
      await until(() => firstCall(fake, sent.thread, "chat.stopStream") !== undefined, plan.maxWaitMs, 5);
      const start = firstCall(fake, sent.thread, "chat.startStream");
      const stopped = firstCall(fake, sent.thread, "chat.stopStream");
      if (start) first.push(start.receivedAt - sent.ackedAt);
      if (stopped) stop.push(stopped.receivedAt - sent.ackedAt);
    }
    await sleep(100);
  }
  return { answered: stop.length, toFirstStreamCall: summarize(first), toStop: summarize(stop) };
}

/** The question the demo posted in `thread`, as a click on its `value` button needs it. */
function questionIn(fake: FakeSlackServer, thread: string) {
  const [channel, threadTs] = thread.split("|") as [string, string];
  for (const message of fake.fake.messagesIn(channel, threadTs)) {
    const blocks = typeof message.blocks === "string" ? (JSON.parse(message.blocks) as unknown) : message.blocks;
    if (!Array.isArray(blocks)) continue;
    const actions = (blocks as Array<{ type?: string; block_id?: string; elements?: Array<Record<string, string>> }>).find(
      (block) => block.type === "actions" && WAIT_BLOCK.test(block.block_id ?? ""),
    );
    if (actions) return { channel, threadTs, ts: message.ts, text: message.text, actions };
  }
  return undefined;
}

/** A click on the question's `value` button, signed, as Slack sends it (test/example/agentWaits.test.ts). */
async function click(subject: Subject, team: string, thread: string, value: "yes" | "no", fake: FakeSlackServer) {
  const question = questionIn(fake, thread);
  if (!question) return { sentAt: highResNow(), ackedAt: null };
  const button = question.actions.elements?.find((element) => element.value === value);
  const { channel, threadTs, ts } = question;
  const payload = {
    ...blockActions({ teamId: team, actionId: button?.action_id ?? "count_confirm", channel, messageTs: ts }),
    container: { type: "message", message_ts: ts, channel_id: channel, thread_ts: threadTs },
    message: { type: "message", ts, thread_ts: threadTs, text: question.text },
    actions: [
      { type: "button", action_id: button?.action_id, block_id: question.actions.block_id, value, action_ts: messageTs() },
    ],
  };
  const delivery = await signedInteraction(payload, { secret: SIGNING_SECRET });
  const sentAt = highResNow();
  try {
    const response = await fetch(new URL("/slack/interactivity", subject.runtime.url), {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await response.arrayBuffer();
    return { sentAt, ackedAt: response.ok ? highResNow() : null };
  } catch {
    return { sentAt, ackedAt: null };
  }
}

const ratioOf = (loaded: number | null, idle: number | null) =>
  loaded === null || idle === null || idle === 0 ? null : Math.round((loaded / idle) * 100) / 100;

async function shardStats(subject: Subject, team: string) {
  const response = await fetch(new URL(`/admin/shards/${team}/0`, subject.runtime.url), {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (!response.ok) throw new Error(`admin API answered ${response.status}`);
  return (await response.json()) as {
    outbox: { pending: number };
    counters: { accepted: number; rowsWritten: number; alarmsSet: number };
  };
}

async function statementTally(subject: Subject): Promise<StatementRows[]> {
  const response = await fetch(new URL("/bench/statements", subject.runtime.url));
  return response.ok ? ((await response.json()) as StatementRows[]) : [];
}

/** Waits (bounded) until the shard has nothing pending and has written nothing for a second. */
async function quiet(subject: Subject, team: string, maxWaitMs: number): Promise<void> {
  const deadline = Date.now() + maxWaitMs;
  let last = -1;
  while (Date.now() < deadline) {
    const stats = await shardStats(subject, team);
    if (stats.outbox.pending === 0 && stats.counters.rowsWritten === last) return;
    last = stats.counters.rowsWritten;
    await sleep(1000);
  }
}

/** Rows written by `cycles` runs of `cycle`, one after another, on a warmed shard of the metered build. */
async function countRows(
  subject: Subject,
  team: string,
  kind: string,
  cycles: number,
  cycle: () => Promise<void>,
  maxWaitMs: number,
): Promise<CycleRows> {
  await quiet(subject, team, maxWaitMs);
  const before = await shardStats(subject, team);
  const tallyBefore = new Map((await statementTally(subject)).map((cost) => [cost.statement, cost]));
  for (let i = 0; i < cycles; i++) await cycle();
  await quiet(subject, team, maxWaitMs);
  const after = await shardStats(subject, team);
  const tally = (await statementTally(subject))
    .map((cost) => ({
      statement: cost.statement,
      calls: cost.calls - (tallyBefore.get(cost.statement)?.calls ?? 0),
      rowsWritten: cost.rowsWritten - (tallyBefore.get(cost.statement)?.rowsWritten ?? 0),
    }))
    .filter((cost) => cost.calls > 0 && cost.rowsWritten > 0);
  const round = (n: number) => Math.round(n * 100) / 100;
  const rowsWritten = after.counters.rowsWritten - before.counters.rowsWritten;
  const alarmsSet = after.counters.alarmsSet - before.counters.alarmsSet;
  const sum = (costs: StatementRows[]) => costs.reduce((total, cost) => total + cost.rowsWritten, 0);
  const perMinuteRows = sum(tally.filter((cost) => PER_MINUTE_TABLES.test(cost.statement)));
  // The tally is the isolate's (the shard and the watch, whose registry is a per-minute table); the
  // shard's counters are the fallback when the build has no per-statement meter.
  const ownRows = tally.length > 0 ? sum(tally) - perMinuteRows : rowsWritten;
  return {
    kind,
    cycles,
    rowsPerCycle: round((ownRows + alarmsSet) / cycles),
    rowsWritten,
    alarmsSet,
    perStatement: tally
      .filter((cost) => !PER_MINUTE_TABLES.test(cost.statement))
      .map((cost) => ({ ...cost, perCycle: round(cost.rowsWritten / cycles) })),
    perMinuteRows,
    waitsTableRows: round(
      tally.filter((cost) => /\bwaits\b/.test(cost.statement)).reduce((sum, cost) => sum + cost.rowsWritten, 0) / cycles,
    ),
  };
}

async function measureRows(fake: FakeSlackServer, plan: WaitPlan): Promise<WaitFigures["rows"]> {
  const subject = await startSubject({
    name: "coordinator",
    worker: "coordinatorMetered",
    apiUrl: fake.fake.apiUrl,
    stateDir: "bench/waits-rows",
    settings: demoSettings(plan),
  });
  try {
    const team = "TWAITROWS";
    // Warm: the shard, its receipt generation and its first minute exist before anything is counted.
    const warm = await mention(subject, team, "hello");
    await until(() => firstCall(fake, warm.thread, "chat.update") !== undefined, plan.maxWaitMs);
    const done = (thread: string, method: string, text?: RegExp) =>
      until(
        () => callsIn(fake, thread).some((call) => call.method === method && (text === undefined || text.test(call.text ?? ""))),
        plan.maxWaitMs,
        20,
      );
    const question = await countRows(
      subject,
      team,
      "count to 1000, asked, clicked no, answered",
      plan.rowCycles,
      async () => {
        const sent = await mention(subject, team, `count to ${plan.questionCount}`);
        await until(() => questionIn(fake, sent.thread) !== undefined, plan.maxWaitMs, 20);
        await until(() => sessionStatuses(fake).get(sent.thread) === "suspended", plan.maxWaitMs, 20);
        await click(subject, team, sent.thread, "no", fake);
        await done(sent.thread, "chat.stopStream");
      },
      plan.maxWaitMs,
    );
    const questionless = await countRows(
      subject,
      team,
      "count to 2001, refused at once (the same short answer, no question)",
      plan.rowCycles,
      async () => {
        const sent = await mention(subject, team, "count to 2001");
        await done(sent.thread, "chat.stopStream");
      },
      plan.maxWaitMs,
    );
    const sleepCycle = await countRows(
      subject,
      team,
      "remind me in 1 second, slept, reminded",
      plan.rowCycles,
      async () => {
        const sent = await mention(subject, team, "remind me in 1 seconds to stretch");
        await done(sent.thread, "chat.postMessage");
      },
      plan.maxWaitMs,
    );
    const sleepless = await countRows(
      subject,
      team,
      "remind me in 100000 seconds, refused at once (one post, no sleep)",
      plan.rowCycles,
      async () => {
        const sent = await mention(subject, team, "remind me in 100000 seconds to stretch");
        await done(sent.thread, "chat.postMessage");
      },
      plan.maxWaitMs,
    );
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      question,
      questionless,
      sleep: sleepCycle,
      sleepless,
      waitCosts: round(question.rowsPerCycle - questionless.rowsPerCycle),
      sleepCosts: round(sleepCycle.rowsPerCycle - sleepless.rowsPerCycle),
    };
  } finally {
    await subject.runtime.stop();
  }
}

/**
 * Issue 30, point 7: a fresh coordinator serving the demo (AGENT_SESSIONS=true, a fast model).
 * `count to 40` answers on the idle coordinator; the same beside 50 runs waiting for a click and
 * 50 asleep; the click's resume; a short sleep's lateness; then rows per wait and per sleep on the
 * metered build of the same code.
 */
export async function measureWaits(plan: WaitPlan): Promise<WaitFigures> {
  const started = Date.now();
  const fake = await startFakeSlackServer();
  const errors: string[] = [];
  const subject = await startSubject({
    name: "coordinator",
    apiUrl: fake.fake.apiUrl,
    stateDir: "bench/waits",
    settings: demoSettings(plan),
    onLog: (level, message) => {
      if (level === "error" && errors.length < 5) errors.push(message.slice(0, 300));
    },
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await subject.runtime.stop();
    stopped = true;
  };
  const team = "TWAITS";
  try {
    console.log("  warm-up (not measured): 5 answers");
    await answers(subject, fake, team, plan, 5);
    fake.clear();

    console.log(`  idle: ${plan.answers} × count to ${plan.answerCount}, one after another …`);
    const idle = await answers(subject, fake, team, plan, plan.answers);

    console.log(
      `  suspending ${plan.questions} runs on a question (count to ${plan.questionCount}) and ${plan.sleepers} asleep (remind me in ${plan.sleepersS} seconds) …`,
    );
    // Interleaved, 20 ms apart: a question, a sleeper, … (whichever is left over last).
    const kinds = Array.from({ length: Math.max(plan.questions, plan.sleepers) * 2 }, (_, i) =>
      i % 2 === 0 ? (i / 2 < plan.questions ? "ask" : null) : (i - 1) / 2 < plan.sleepers ? "sleep" : null,
    ).filter((kind) => kind !== null);
    const mentions: Array<Promise<Mentioned & { kind: string }>> = [];
    for (const kind of kinds) {
      const text = kind === "ask" ? `count to ${plan.questionCount}` : `remind me in ${plan.sleepersS} seconds to look up`;
      mentions.push(mention(subject, team, text).then((m) => ({ ...m, kind })));
      await sleep(20);
    }
    const sent = await Promise.all(mentions);
    const asked = sent.filter((m) => m.kind === "ask");
    const sleepers = sent.filter((m) => m.kind === "sleep");
    const waiting = () => {
      const statuses = sessionStatuses(fake);
      return {
        questions: asked.filter((m) => statuses.get(m.thread) === "suspended" && questionIn(fake, m.thread)).length,
        sleepers: sleepers.filter((m) => statuses.get(m.thread) === "active").length,
      };
    };
    await until(() => {
      const now = waiting();
      return now.questions === asked.length && now.sleepers === sleepers.length;
    }, plan.maxWaitMs);
    const suspended = waiting();
    const pending = await shardStats(subject, team)
      .then((stats) => stats.outbox.pending)
      .catch(() => null);
    console.log(
      `    ${suspended.questions} questions waiting (session suspended), ${suspended.sleepers} asleep (session active); outbox pending ${pending}`,
    );

    console.log(`  beside them: ${plan.answers} × count to ${plan.answerCount} …`);
    const loaded = await answers(subject, fake, team, plan, plan.answers);

    console.log(`  clicking "no" on the ${asked.length} questions, one every ${plan.clickEveryMs} ms …`);
    const clicks: Array<Promise<{ thread: string; sentAt: number; ackedAt: number | null }>> = [];
    for (const m of asked) {
      clicks.push(click(subject, team, m.thread, "no", fake).then((c) => ({ thread: m.thread, ...c })));
      await sleep(plan.clickEveryMs);
    }
    const clicked = await Promise.all(clicks);
    await until(() => clicked.every((c) => firstCall(fake, c.thread, "chat.stopStream", c.sentAt)), plan.maxWaitMs);
    const resumes = clicked.map((c) => ({
      ...c,
      start: firstCall(fake, c.thread, "chat.startStream", c.sentAt),
      stop: firstCall(fake, c.thread, "chat.stopStream", c.sentAt),
    }));
    const stillAsleep = sleepers.filter((m) =>
      callsIn(fake, m.thread).every((call) => call.method !== "chat.postMessage"),
    ).length;

    console.log(`  ${plan.timers} reminders in ${plan.timerMinS}–${plan.timerMaxS} s, 50 ms apart …`);
    const timerSent: Array<Promise<Mentioned & { seconds: number }>> = [];
    const span = plan.timerMaxS - plan.timerMinS + 1;
    for (let i = 0; i < plan.timers; i++) {
      const seconds = plan.timerMinS + (i % span);
      timerSent.push(
        mention(subject, team, `remind me in ${seconds} seconds to take timer ${i}`).then((m) => ({ ...m, seconds })),
      );
      await sleep(50);
    }
    const timers = await Promise.all(timerSent);
    const reminderOf = (m: Mentioned) =>
      callsIn(fake, m.thread).find((call) => call.method === "chat.postMessage" && call.receivedAt > (m.ackedAt ?? 0));
    await until(() => timers.every((m) => m.ackedAt === null || reminderOf(m)), plan.timerMaxS * 1000 + plan.maxWaitMs, 100);
    const lateness = timers.flatMap((m) => {
      const posted = reminderOf(m);
      return posted && m.ackedAt !== null ? [posted.receivedAt - (m.ackedAt + m.seconds * 1000)] : [];
    });
    await stop();

    console.log(`  rows per wait and per sleep: ${plan.rowCycles} cycles of each kind on the metered build …`);
    fake.clear();
    const rows = await measureRows(fake, plan).catch((error: unknown) => {
      console.log(`    rows not measured: ${String(error)}`);
      return null;
    });

    return {
      plan,
      idle,
      loaded: { ...loaded, questionsWaiting: suspended.questions, sleepersAsleep: suspended.sleepers, outboxPending: pending },
      ratio: {
        toFirstStreamCall: {
          p50: ratioOf(loaded.toFirstStreamCall.p50, idle.toFirstStreamCall.p50),
          p99: ratioOf(loaded.toFirstStreamCall.p99, idle.toFirstStreamCall.p99),
        },
        toStop: { p50: ratioOf(loaded.toStop.p50, idle.toStop.p50), p99: ratioOf(loaded.toStop.p99, idle.toStop.p99) },
      },
      clicks: {
        sent: clicked.length,
        acked: clicked.filter((c) => c.ackedAt !== null).length,
        ack: summarize(clicked.flatMap((c) => (c.ackedAt === null ? [] : [c.ackedAt - c.sentAt]))),
        toResume: summarize(resumes.flatMap((r) => (r.start ? [r.start.receivedAt - r.sentAt] : []))),
        toStop: summarize(resumes.flatMap((r) => (r.stop ? [r.stop.receivedAt - r.sentAt] : []))),
        sleepersStillAsleep: stillAsleep,
      },
      timers: { sent: timers.length, reminded: lateness.length, lateness: summarize(lateness) },
      rows,
      coordinatorLogErrors: errors,
      wallS: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await stop();
    await fake.close();
  }
}
