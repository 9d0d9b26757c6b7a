import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { startFakeSlackServer } from "../fakeSlack/fakeSlackServer";
import { LoadClient } from "../load/loadClient";
import type { describeMachine } from "../report/machine";
import { judgeBacklog, printBacklog } from "../report/printBacklog";
import { watchdog } from "../runtime/cleanup";
import { repoRoot } from "../runtime/repoRoot";
import { type BacklogRun, type BacklogSize, finishBacklogSize, prepareBacklogSize, stopBacklogSize } from "./backlog";
import { SeededReplies } from "./backlogDrain";
import { BACKLOG_PLAN, type BacklogPlan, backlogPlanFromArguments } from "./backlogPlan";
import { measureSteady } from "./backlogSteady";
import type { BenchContext } from "./benchContext";

/** How often each size's shard is read between its own phases (the operations API's stats: a few rows read). */
const KEEP_WARM_MS = 2_000;

/**
 * Every backlog size in one run, against one fake Slack and one load process: each seeded and
 * restarted on its backlog in turn (the rest idle meanwhile), then the steady load interleaved over
 * all of them, then each one's alarm and drain, after which its runtime stops (and its state is
 * deleted, unless `--keep-state`). Loopback only.
 */
export async function measureBacklog(plan: BacklogPlan): Promise<BacklogRun[]> {
  const replies = new SeededReplies();
  const fake = await startFakeSlackServer({ onCall: replies.onCall });
  const load = new LoadClient();
  let runs = 0;
  const context: BenchContext = { load, fake, nextRunId: () => `B${++runs}` };
  const sizes: BacklogSize[] = [];
  const finished: BacklogRun[] = [];
  // The runtime evicts an object idle for ~10 s, and a new instance walks its backlog again (seconds at 1M rows):
  // a shard with traffic is never idle that long, so each size is kept in use while the others are measured.
  const warm = setInterval(() => {
    for (const size of sizes) void size.shard.stats().catch(() => undefined);
  }, KEEP_WARM_MS);
  try {
    for (const size of plan.sizes) {
      console.log(`\n${size.toLocaleString("en-US")} rows pending in one shard:`);
      sizes.push(await prepareBacklogSize(context, size, plan));
    }
    console.log(`\nsteady load, ${plan.steadyRounds} rounds of ${plan.steadyMs / 1000} s per size, interleaved:`);
    await measureSteady(context, sizes, plan);
    while (sizes.length > 0) {
      const size = sizes.shift()!;
      console.log(`\n${size.label}: the alarm and the drain`);
      finished.push(await finishBacklogSize(context, replies, size, plan));
    }
  } finally {
    clearInterval(warm);
    for (const size of sizes) await stopBacklogSize(size, plan);
    load.close();
    await fake.close();
  }
  return finished;
}

/** `npm run bench -- --backlog [--sizes 0,10000] [--keep-state]` (issue 40, point 6): prints the tables, writes bench/results-backlog.json. */
export async function benchBacklog(machine: ReturnType<typeof describeMachine>, startedAt: Date): Promise<void> {
  const plan = backlogPlanFromArguments();
  watchdog(plan.deadlineMs, "npm run bench -- --backlog");
  const backlog = await measureBacklog(plan);
  printBacklog(backlog, plan.rate);
  // A run of other sizes does not overwrite the full run's figures (bench/README.md quotes those).
  const partial = plan.sizes.join() !== BACKLOG_PLAN.sizes.join();
  const file = resolve(repoRoot, partial ? "bench/results-backlog-sizes.json" : "bench/results-backlog.json");
  const results = {
    generatedAt: startedAt.toISOString(),
    durationS: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100) },
    plan,
    targets: judgeBacklog(backlog),
    backlog,
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
}
