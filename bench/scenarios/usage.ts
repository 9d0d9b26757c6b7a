import { PRICES } from "../pricing";
import { type Dollars, dollarsPerMillionEvents, type MeasuredUsage } from "../report/dollars";
import type { Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { type RunResult, runAtRate } from "./runAtRate";

/** What a metered build reports at /bench/usage (bench/workers/meteredCoordinator.ts, seedD1.ts); zeros elsewhere. */
interface Tally {
  objectRequests: number;
  alarms: number;
  alarmsSet: number;
  /** Requests and alarms so far, by object. */
  reachedObjects: Map<string, number>;
  rowsWritten: number;
  rowsRead: number;
  databaseBytes: number;
  cronTicks: number;
  /** Rows by SQL statement (whitespace normalised). */
  statements: Map<string, StatementRows>;
}

interface StatementRows {
  calls: number;
  rowsWritten: number;
  rowsRead: number;
}

const NOTHING: Tally = {
  objectRequests: 0,
  alarms: 0,
  alarmsSet: 0,
  reachedObjects: new Map(),
  rowsWritten: 0,
  rowsRead: 0,
  databaseBytes: 0,
  cronTicks: 0,
  statements: new Map(),
};

interface CoordinatorUsage {
  objects: { requests: number; alarms: number; alarmsSet: number; reached: Record<string, number>; databaseBytes: number };
  statements: Array<{ statement: string; calls: number; rowsWritten: number; rowsRead?: number }>;
}
interface SeedUsage {
  cronTicks: number;
  d1: { rowsRead: number; rowsWritten: number; sizeAfter: number; byStatement: Record<string, StatementRows> };
}

/** The subject's tallies now; a build without the route (slack-edge, the plain coordinator) reports nothing. */
async function tally(subject: Subject): Promise<Tally | null> {
  const response = await fetch(new URL("/bench/usage", subject.runtime.url));
  if (!response.ok) return null;
  const body = (await response.json()) as Partial<CoordinatorUsage & SeedUsage>;
  if (body.objects && body.statements) {
    const sum = (key: "rowsWritten" | "rowsRead") => body.statements!.reduce((n, s) => n + (s[key] ?? 0), 0);
    return {
      ...NOTHING,
      objectRequests: body.objects.requests,
      alarms: body.objects.alarms,
      alarmsSet: body.objects.alarmsSet,
      reachedObjects: new Map(Object.entries(body.objects.reached)),
      rowsWritten: sum("rowsWritten"),
      rowsRead: sum("rowsRead"),
      databaseBytes: body.objects.databaseBytes,
      statements: new Map(
        body.statements.map((s) => [s.statement, { calls: s.calls, rowsWritten: s.rowsWritten, rowsRead: s.rowsRead ?? 0 }]),
      ),
    };
  }
  if (body.d1)
    return {
      ...NOTHING,
      rowsWritten: body.d1.rowsWritten,
      rowsRead: body.d1.rowsRead,
      databaseBytes: body.d1.sizeAfter,
      cronTicks: body.cronTicks ?? 0,
      statements: new Map(Object.entries(body.d1.byStatement ?? {})),
    };
  return null;
}

/**
 * How long what a run stored stays, in hours. The coordinator drops a receipt generation once all
 * of it is past RECEIPT_RETENTION_HOURS (24): a receipt stays 24 to 48 h, 36 on average. The
 * seeds' design prunes, each minute, what is a day old.
 */
const STORED_HOURS = { coordinator: 36, "seed-d1": 24 } as Partial<Record<Subject["name"], number>>;
const DAY_MS = 24 * 3_600_000;

export interface CostedRun {
  run: RunResult;
  /** Null when the subject's counts could not be read (a build without /bench/usage: dollars unknown). */
  usage: MeasuredUsage | null;
  /** Rows written and read per event by each SQL statement over the run (and the seed's later cron tick). */
  statements: Array<{ statement: string; callsPerEvent: number; rowsWrittenPerEvent: number; rowsReadPerEvent: number }>;
}

/** Objects that got a request or an alarm between two tallies: those the run kept active. */
function activeObjects(before: Tally, after: Tally): number {
  return [...after.reachedObjects].filter(([id, n]) => n > (before.reachedObjects.get(id) ?? 0)).length;
}

/** What each statement cost per event between two tallies, most rows written first. */
function statementsSince(before: Tally, after: Tally, events: number) {
  const perEvent = (n: number) => Math.round((n / Math.max(events, 1)) * 1000) / 1000;
  // Each setAlarm() is billed as one row written: listed as a statement of its own.
  const alarms: [string, StatementRows] = ["setAlarm()", { calls: after.alarmsSet, rowsWritten: after.alarmsSet, rowsRead: 0 }];
  before.statements.set("setAlarm()", { calls: before.alarmsSet, rowsWritten: before.alarmsSet, rowsRead: 0 });
  return [...after.statements, alarms]
    .map(([statement, rows]) => {
      const earlier = before.statements.get(statement);
      return {
        statement,
        callsPerEvent: perEvent(rows.calls - (earlier?.calls ?? 0)),
        rowsWrittenPerEvent: perEvent(rows.rowsWritten - (earlier?.rowsWritten ?? 0)),
        rowsReadPerEvent: perEvent(rows.rowsRead - (earlier?.rowsRead ?? 0)),
      };
    })
    .filter((s) => s.callsPerEvent > 0)
    .sort((a, b) => b.rowsWrittenPerEvent - a.rowsWrittenPerEvent);
}

/**
 * One measured run with the counts Cloudflare bills, read from the subject's own tallies before and
 * after. For the seeds' design, a cron tick a day later then runs its sweep and prunes the run's
 * rows (those rows written are counted; the size stored is read before it); one such tick before
 * the run prunes the warm-up's rows, which are not the run's.
 */
export async function runWithUsage(
  context: BenchContext,
  subject: Subject,
  options: { rate: number; durationMs: number; workspaces: readonly string[] },
): Promise<CostedRun> {
  // Workers without storage: their counts are the load's requests and the runtime's CPU alone.
  const plain = subject.name === "slack-edge-same-work" || subject.name === "slack-edge" || subject.name === "floor";
  // The seeds' design: a tick a day on first prunes what came before (the warm-up), so the tick after the run prunes only the run's rows.
  const aDayOn = () => subject.runtime.scheduled(new Date(Date.now() + DAY_MS + 60_000));
  if (subject.name === "seed-d1") await aDayOn();
  const before = plain ? NOTHING : await tally(subject);
  const run = await runAtRate(context, subject, options);
  const stored = plain ? NOTHING : await tally(subject);
  if (subject.name === "seed-d1") await aDayOn();
  const after = plain ? NOTHING : await tally(subject);
  if (!before || !stored || !after || run.runtimeCpuMsPerEvent === null) return { run, usage: null, statements: [] };
  const seconds = options.durationMs / 1000;
  const usage: MeasuredUsage = {
    events: run.sent,
    workerRequests: run.sent,
    cronInvocations: subject.name === "seed-d1" ? seconds / 60 : 0,
    workerCpuMs: run.runtimeCpuMsPerEvent * run.sent,
    objectRequests: after.objectRequests - before.objectRequests,
    objectAlarms: after.alarms - before.alarms,
    objectActiveSeconds: activeObjects(before, after) * seconds,
    rowsWritten: after.rowsWritten - before.rowsWritten + (after.alarmsSet - before.alarmsSet),
    rowsRead: after.rowsRead - before.rowsRead,
    storedBytes: Math.max(stored.databaseBytes - before.databaseBytes, 0),
    storedHours: STORED_HOURS[subject.name] ?? 0,
    store: subject.name === "seed-d1" ? "d1" : after.reachedObjects.size > 0 ? "durable-objects" : "none",
  };
  return { run, usage, statements: statementsSince(before, after, run.sent) };
}

export function dollarsOf(usage: MeasuredUsage): Dollars {
  return dollarsPerMillionEvents(usage, PRICES);
}

/** A Worker without storage (slack-edge, the floor): its requests and its runtime's CPU over a run already made. */
export function plainUsage(run: RunResult | undefined): MeasuredUsage | null {
  if (!run || run.runtimeCpuMsPerEvent === null) return null;
  return {
    events: run.sent,
    workerRequests: run.sent,
    cronInvocations: 0,
    workerCpuMs: run.runtimeCpuMsPerEvent * run.sent,
    objectRequests: 0,
    objectAlarms: 0,
    objectActiveSeconds: 0,
    rowsWritten: 0,
    rowsRead: 0,
    storedBytes: 0,
    storedHours: 0,
    store: "none",
  };
}
