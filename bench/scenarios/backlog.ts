import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { repoRoot } from "../runtime/repoRoot";
import { syncDisk } from "../runtime/syncDisk";
import { type Subject, startSubject } from "../subjects";
import { seedMix } from "../workers/backlogSql";
import { measureDrain, type SeededReplies } from "./backlogDrain";
import type { BacklogPlan } from "./backlogPlan";
import { BacklogShard } from "./backlogShard";
import type { SteadyRounds } from "./backlogSteady";
import type { BenchContext } from "./benchContext";
import { type RunResult, runAtRate } from "./runAtRate";

/** The one workspace (so the one shard) every size is measured on, each in its own runtime and state. */
export const BACKLOG_WORKSPACE = "TBACKLOG";
const HOUR_MS = 3_600_000;

export interface BacklogRun {
  /** Rows pending in the shard when its new instance starts, and how they were mixed. */
  size: number;
  seeded: { waiting: number; leased: number; parked: number };
  seedS: number | null;
  /** After the seed and the runtime's stop, how long the kernel took to write the seed's dirty pages out (`sync`). */
  syncS: number | null;
  /** From the restart until the new instance's walk had counted every seeded row; null if not within the bound. */
  walkS: number | null;
  /** The load right after the restart, while the walk runs, and the rows it wrote per event. */
  inherit: RunResult;
  inheritRowsPerEvent: number | null;
  /** The load once the walk is complete, in rounds interleaved with the other sizes'. */
  steady: SteadyRounds | null;
  alarms: {
    /** workerd CPU per alarm with nothing due (its claim finds nothing), over `idleRounds`. */
    idleCpuMs: number | null;
    idleRounds: number;
    /** workerd CPU per alarm that claims `batch` rows made due just before and delivers them. */
    batchCpuMs: number | null;
    batchRounds: number;
    batch: number;
    delivered: number;
  } | null;
  drain: Awaited<ReturnType<typeof measureDrain>> | null;
}

/** A size whose runtime is up on its inherited backlog, between its phases. */
export interface BacklogSize {
  run: BacklogRun;
  subject: Subject;
  shard: BacklogShard;
  label: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What Cloudflare bills as rows written, per accepted event, as the cost scenario reads it (bench/scenarios/rowsPerEvent.ts). */
export const rowsPerEventOf = (c: { accepted: number; rowsWritten: number; alarmsSet: number }) =>
  c.accepted > 0 ? round2((c.rowsWritten + c.alarmsSet) / c.accepted) : null;

function startBacklogSubject(context: BenchContext, size: number, keepState: boolean): Promise<Subject> {
  const stateDir = `bench/backlog-${size}`;
  return startSubject({
    name: "coordinator",
    worker: "coordinatorBacklog",
    apiUrl: context.fake.fake.apiUrl,
    stateDir,
    keepState,
  });
}

/** Polls the shard's counts until its walk has counted every seeded row; seconds it took, or null past `maxMs`. */
async function walkSeconds(shard: BacklogShard, seeded: BacklogRun["seeded"], maxMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < maxMs) {
    const { outbox } = await shard.stats();
    if (outbox.parked >= seeded.parked && outbox.pending >= seeded.waiting + seeded.leased)
      return Math.round((Date.now() - started) / 100) / 10;
    await sleep(250);
  }
  return null;
}

/** workerd CPU per round of `work`'s rounds; null when its runtime restarted meanwhile. */
async function cpuPerRound(subject: Subject, rounds: number, work: () => Promise<unknown>): Promise<number | null> {
  const before = subject.cpuMs();
  await work();
  const used = subject.cpuMs() - before;
  return Number.isNaN(used) ? null : Math.round((used / rounds) * 1000) / 1000;
}

/**
 * One size up to its steady state, on its own state: seeded with SQL inside the shard, the runtime
 * restarted (a deploy's reset: the new instance learns the rows by its walk), and load while it walks.
 */
export async function prepareBacklogSize(context: BenchContext, size: number, plan: BacklogPlan): Promise<BacklogSize> {
  const seeded = seedMix(size, plan.leasedMax);
  const label = `${size.toLocaleString("en-US")} pending`;
  let seedS: number | null = null;
  let syncS: number | null = null;
  const fresh = await startBacklogSubject(context, size, false);
  try {
    if (size > 0) {
      const started = Date.now();
      // Waiting rows are due an hour or more from now, so no measurement below meets them unless it makes them due.
      const due = started + HOUR_MS;
      await new BacklogShard(fresh.runtime.url, BACKLOG_WORKSPACE).seed(
        { from: 1, count: size, leasedMax: plan.leasedMax, dueFrom: due, leaseUntil: due, mixed: true },
        (done) => process.stdout.write(`\r  ${label}: seeding … ${done.toLocaleString("en-US")} rows`),
      );
      seedS = Math.round((Date.now() - started) / 100) / 10;
      console.log(`\r  ${label}: seeded in ${seedS} s (${JSON.stringify(seeded)})`);
    }
  } finally {
    await fresh.runtime.stop();
  }
  if (size > 0) syncS = await syncDisk();
  const subject = await startBacklogSubject(context, size, true);
  const shard = new BacklogShard(subject.runtime.url, BACKLOG_WORKSPACE);
  const walked = walkSeconds(shard, seeded, plan.walkMaxMs);
  const inherit = await runAtRate(context, subject, {
    rate: plan.rate,
    durationMs: plan.inheritMs,
    workspaces: [BACKLOG_WORKSPACE],
  });
  const walkS = await walked;
  // A new instance's counters start at 0: these are the restart's and the load's since.
  const inheritRowsPerEvent = rowsPerEventOf((await shard.stats()).counters);
  const walkSaid = walkS === null ? "NOT within the bound" : `${walkS} s after the restart`;
  console.log(`  ${label}: restarted on it (sync ${syncS ?? 0} s); the new instance's walk counted every row ${walkSaid}`);
  const run = { size, seeded, seedS, syncS, walkS, inherit, inheritRowsPerEvent, steady: null, alarms: null, drain: null };
  return { run, subject, shard, label };
}

/** The size's alarm with nothing due and with a batch due, then a drain of its waiting rows; its runtime stopped after. */
export async function finishBacklogSize(
  context: BenchContext,
  replies: SeededReplies,
  { run, subject, shard, label }: BacklogSize,
  plan: BacklogPlan,
): Promise<BacklogRun> {
  try {
    const idleCpuMs = await cpuPerRound(subject, plan.idleAlarms, () => shard.alarms(plan.idleAlarms, 0));
    // Rows for the alarms to claim, due before the backlog's (the 0 size has none of its own): seeded beside the
    // instance's memory, which they never enter; only the claims read them, through the index of waiting rows.
    const batchRows = plan.batchAlarms * plan.batch;
    const now = Date.now();
    await shard.seed({
      from: run.size + 1,
      count: batchRows,
      leasedMax: 0,
      dueFrom: now + HOUR_MS / 2,
      leaseUntil: now,
      mixed: false,
    });
    replies.reset();
    const batchCpuMs = await cpuPerRound(subject, plan.batchAlarms, () => shard.alarms(plan.batchAlarms, plan.batch));
    const delivered = replies.count;
    run.alarms = {
      idleCpuMs,
      idleRounds: plan.idleAlarms,
      batchCpuMs,
      batchRounds: plan.batchAlarms,
      batch: plan.batch,
      delivered,
    };
    console.log(
      `  ${label}: an alarm with nothing due ${idleCpuMs} ms of CPU; claiming and delivering ${plan.batch} rows ${batchCpuMs} ms (${delivered} of ${batchRows} delivered)`,
    );
    if (run.size >= plan.drainFrom) {
      const workspaces = [BACKLOG_WORKSPACE];
      run.drain = await measureDrain(context, subject, shard, replies, Math.min(plan.drainRows, run.seeded.waiting), {
        ...plan,
        workspaces,
      });
      const { drain } = run;
      console.log(
        `  ${label}: drained ${drain.delivered} of ${drain.rows} rows in ${drain.seconds} s (${drain.perSecond}/s), ack p99 ${drain.during.ack.p99} ms beside it`,
      );
    }
    return run;
  } finally {
    await stopBacklogSize({ run, subject, shard, label }, plan);
  }
}

/** Stops the size's runtime and, unless `--keep-state`, deletes its state (1M rows are ~4.7 GB). */
export async function stopBacklogSize({ run, subject }: BacklogSize, plan: BacklogPlan): Promise<void> {
  await subject.runtime.stop();
  if (!plan.keepState) rmSync(resolve(repoRoot, "bench/.state", `bench/backlog-${run.size}`), { recursive: true, force: true });
}
