import { type FakeSlackServer, startFakeSlackServer } from "../fakeSlack/fakeSlackServer";
import { type LatencySummary, summarize } from "../report/latency";
import { type Subject, startSubject } from "../subjects";
import { measureRows, shardStats, type WaitRows } from "./waitRows";
import {
  callsIn,
  click,
  demoSettings,
  firstCall,
  type Mentioned,
  mention,
  questionIn,
  sessionStatuses,
  sleep,
  until,
} from "./waitTraffic";

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
  rows: WaitRows | null;
  coordinatorLogErrors: string[];
  wallS: number;
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

const ratioOf = (loaded: number | null, idle: number | null) =>
  loaded === null || idle === null || idle === 0 ? null : Math.round((loaded / idle) * 100) / 100;

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
