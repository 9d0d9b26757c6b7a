import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { addUsage, type MeasuredUsage } from "./report/dollars";
import { printDollars, printStatementRows } from "./report/printDollars";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument, textArgument } from "./runtime/cliArguments";
import { repoRoot } from "./runtime/repoRoot";
import type { WorkerKind } from "./runtime/startRuntime";
import { median } from "./scenarios/interleaved";
import { type RunResult, runAtRate } from "./scenarios/runAtRate";
import { type CostedRun, runWithUsage } from "./scenarios/usage";
import { type SubjectName, startSubject, subjectsArgument } from "./subjects";

// `npm run compare [-- --baseline <checkout> --rate 300 --seconds 5 --rounds 3 --with floor,ingest-only]`: this checkout's
// coordinator, slack-edge doing the same work, the seeds' D1 design and (with --baseline) the
// coordinator of another checkout, run in turn at one rate for several rounds; then each one's
// dollars per million events from the counts of those runs (report/printDollars.ts). A change of a few percent in CPU per
// event is lost in the noise between two bench runs on a shared machine; interleaved rounds of
// the same run show it. Loopback only, bounded, stops by itself.
const rate = positiveArgument("rate", 300);
const seconds = positiveArgument("seconds", 5);
const rounds = positiveArgument("rounds", 3);
const baseline = textArgument("baseline");
if (baseline) {
  if (!existsSync(resolve(baseline, "src/index.ts"))) throw new Error(`--baseline ${baseline}: no src/index.ts there`);
  // The other checkout's coordinator, bundled beside this one's (bench/.build/workers/coordinatorBaseline.mjs).
  execFileSync(process.execPath, [resolve(repoRoot, "scripts/build-bench.mjs"), "--baseline", baseline], { stdio: "inherit" });
}
killDescendantsOnExit();

interface Contender {
  label: string;
  name: SubjectName;
  worker?: WorkerKind;
  /** A part of the cost (--with), shown but not a reference the ratios are taken against. */
  part?: true;
}
/** `--with floor,ingest-only,slack-edge`: more subjects in the same rounds, to split the cost per event into its parts. */
const extra = subjectsArgument("with", ["floor", "ingest-only", "slack-edge"]);
watchdog(rounds * (4 + extra.length) * (seconds * 1000 + 150_000) + 60_000, "npm run compare");
const contenders: Contender[] = [
  // The metered build: the same code, plus tallies of rows, object requests and alarms (a Map
  // update per SQL statement, a counter per stub call) for its dollars.
  { label: "coordinator (this checkout)", name: "coordinator", worker: "coordinatorMetered" },
  ...(baseline
    ? [{ label: `coordinator (${baseline})`, name: "coordinator" as const, worker: "coordinatorBaseline" as const }]
    : []),
  { label: "slack-edge, same work", name: "slack-edge-same-work" },
  { label: "seeds' D1 design", name: "seed-d1" },
  ...extra.map((name) => ({ label: name, name, part: true as const })),
];

const fake = await startFakeSlackServer();
const load = new LoadClient();
let runs = 0;
const context = { load, fake, nextRunId: () => `C${++runs}` };
console.log(`compare: ${contenders.map((c) => c.label).join(", ")} at ${rate}/s for ${seconds} s, ${rounds} rounds`);
const results = new Map<string, RunResult[]>(contenders.map((c) => [c.label, []]));
/** Each contender's counts over its rounds; null once a round could not be counted. */
const usages = new Map<string, MeasuredUsage | null | undefined>();
const statements = new Map<string, CostedRun["statements"]>();
try {
  for (let round = 1; round <= rounds; round++) {
    // Who goes first alternates, so a machine that slows down over time favours no one.
    const order = round % 2 === 1 ? contenders : [...contenders].reverse();
    for (const contender of order) {
      const subject = await startSubject({
        name: contender.name,
        worker: contender.worker,
        apiUrl: fake.fake.apiUrl,
        stateDir: "compare",
      });
      try {
        await runAtRate(context, subject, { rate: 100, durationMs: 2000, workspaces: workspaces(1) });
        const {
          run,
          usage,
          statements: rows,
        } = await runWithUsage(context, subject, {
          rate,
          durationMs: seconds * 1000,
          workspaces: workspaces(1),
        });
        results.get(contender.label)?.push(run);
        statements.set(contender.label, rows);
        const sofar = usages.get(contender.label);
        usages.set(contender.label, sofar === null || !usage ? null : sofar ? addUsage(sofar, usage) : usage);
      } finally {
        await subject.runtime.stop();
      }
    }
  }
} finally {
  load.close();
  await fake.close();
}

const summary = contenders.map(({ label, part }) => {
  const runs = results.get(label) ?? [];
  return {
    label,
    part,
    ackP99: runs.map((r) => r.ack.p99 ?? Number.NaN),
    cpuMsPerEvent: runs.map((r) => r.runtimeCpuMsPerEvent ?? Number.NaN),
    replyP99: runs.map((r) => r.delivery?.p99 ?? Number.NaN),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
});
console.log(`\nat ${rate}/s, per round (median last):`);
for (const row of summary) {
  const show = (values: number[], digits: number) =>
    `${values.map((v) => v.toFixed(digits)).join(" / ")}  → ${median(values)?.toFixed(digits) ?? "–"}`;
  console.log(`  ${row.label}`);
  console.log(`    ack p99 ms      ${show(row.ackP99, 1)}`);
  console.log(`    cpu ms / event  ${show(row.cpuMsPerEvent, 2)}`);
  console.log(`    reply p99 ms    ${show(row.replyP99, 1)}   non-2xx ${row.non2xx}`);
}
// The ratios issue 32 asks for: this checkout's median against each other contender's.
const [ours, ...others] = summary;
if (ours) {
  console.log(`\nratios of medians, ${ours.label} against:`);
  // Against the references; the parts of the cost (--with) are shown above.
  for (const other of others.filter((row) => !row.part)) {
    const ratio = (a: number[], b: number[]) => ((median(a) ?? Number.NaN) / (median(b) ?? Number.NaN)).toFixed(2);
    console.log(
      `  ${other.label}: cpu ms / event ${ratio(ours.cpuMsPerEvent, other.cpuMsPerEvent)}×, reply p99 ${ratio(ours.replyP99, other.replyP99)}×, ack p99 ${ratio(ours.ackP99, other.ackP99)}×`,
    );
  }
}
printStatementRows(contenders.map(({ label }) => ({ label, statements: statements.get(label) ?? [] })));
printDollars(contenders.map(({ label }) => ({ label, usage: usages.get(label) ?? null })));
const dir = resolve(repoRoot, "bench/.compare");
mkdirSync(dir, { recursive: true });
const file = resolve(dir, `compare-${rate}.json`);
writeFileSync(
  file,
  JSON.stringify({ rate, seconds, rounds, baseline: baseline ?? null, summary, usage: Object.fromEntries(usages) }, null, 2),
);
console.log(`\nwrote ${file}`);
