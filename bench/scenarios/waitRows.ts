import type { FakeSlackServer } from "../fakeSlack/fakeSlackServer";
import { ADMIN_TOKEN, type Subject, startSubject } from "../subjects";
import type { WaitPlan } from "./waits";
import { callsIn, click, demoSettings, firstCall, mention, questionIn, sessionStatuses, sleep, until } from "./waitTraffic";

// Rows written per durable wait and per sleep (bench/scenarios/waits.ts), on the metered build.

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

export interface WaitRows {
  question: CycleRows;
  questionless: CycleRows;
  sleep: CycleRows;
  sleepless: CycleRows;
  /** question − questionless, sleep − sleepless: what the wait and the sleep add, rows per cycle. */
  waitCosts: number;
  sleepCosts: number;
}

/** The per-minute tables whatever the traffic (metrics, the watch's registry, the guard's tallies): not a cycle's own. */
const PER_MINUTE_TABLES = /\b(metric_minutes|shard_registry|answer_counts|guard_state)\b/;

export async function shardStats(subject: Subject, team: string) {
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

export async function measureRows(fake: FakeSlackServer, plan: WaitPlan): Promise<WaitRows> {
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
