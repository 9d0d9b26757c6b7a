import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { allocationsPerEvent } from "./profile/allocations";
import { callersOf, Profiler, selfTime } from "./profile/cpuProfile";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument } from "./runtime/cliArguments";
import { repoRoot } from "./runtime/repoRoot";
import { type RunResult, runAtRate } from "./scenarios/runAtRate";
import { startSubject, subjectArgument, workerOf } from "./subjects";

// `npm run profile [-- --rate 300 --seconds 5 --subject coordinator]`: a V8 CPU profile of the
// coordinator (the Worker and its shards share one isolate in workerd) under the bench's load at
// one rate, to see where its CPU per event goes; `--subject slack-edge-same-work` profiles the
// reference under the same load. `--allocations` samples bytes allocated instead of time: per event,
// by source file and by function — sampled by bytes, so a loaded machine measures it as an idle one
// does, to compare two subjects or two checkouts. Loopback only, bounded, stops by itself.
const name = subjectArgument();
const rate = positiveArgument("rate", 300);
const seconds = positiveArgument("seconds", 5);
const allocations = process.argv.includes("--allocations");
const INSPECTOR_PORT = 9339;
killDescendantsOnExit();
watchdog(3 * 60_000 + seconds * 1000, "npm run profile");

const fake = await startFakeSlackServer();
const load = new LoadClient();
let runs = 0;
const context = { load, fake, nextRunId: () => `P${++runs}` };
console.log(`profile: ${name} at ${rate}/s for ${seconds} s (V8 inspector on 127.0.0.1:${INSPECTOR_PORT})`);
const subject = await startSubject({
  name,
  apiUrl: fake.fake.apiUrl,
  stateDir: "bench/profile",
  inspectorPort: INSPECTOR_PORT,
});
try {
  console.log("warm-up (not profiled) …");
  await runAtRate(context, subject, { rate: 100, durationMs: 2000, workspaces: workspaces(1) });
  const profiler = await Profiler.connect(INSPECTOR_PORT, workerOf(name));
  const runIt = () => runAtRate(context, subject, { rate, durationMs: seconds * 1000, workspaces: workspaces(1) });
  if (allocations) await sampleAllocations(profiler, runIt);
  else await sampleCpu(profiler, runIt);
} finally {
  await subject.runtime.stop();
  load.close();
  await fake.close();
}

/** The CPU profile: self time, and SQLite's time by caller; the profile written under bench/.profile/. */
async function sampleCpu(profiler: Profiler, runIt: () => Promise<RunResult>): Promise<void> {
  await profiler.start(200);
  const run = await runIt();
  const profile = await profiler.stop();
  profiler.close();
  const dir = resolve(repoRoot, "bench/.profile");
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `${name}-${rate}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`\nack p50 ${run.ack?.p50} / p99 ${run.ack?.p99} ms, ${run.runtimeCpuMsPerEvent} ms CPU per event`);
  console.log(`\nself time, share of all samples (idle included; ${profile.samples.length} samples every 200 µs):`);
  for (const { share, where } of selfTime(profile, 25)) console.log(`${(share * 100).toFixed(1).padStart(6)} %  ${where}`);
  console.log("\nSQLite (exec), by caller:");
  for (const { share, chain } of callersOf(profile, "exec", 10))
    console.log(`${(share * 100).toFixed(1).padStart(6)} %  ${chain}`);
  console.log(`\nwrote ${file} (open it in Chrome DevTools → Performance, or any .cpuprofile viewer)`);
}

/** `--allocations`: the bytes the run allocated (freed ones included), per event sent, by source file and by function. */
async function sampleAllocations(profiler: Profiler, runIt: () => Promise<RunResult>): Promise<void> {
  await profiler.startAllocationSampling();
  const run = await runIt();
  const head = await profiler.stopAllocationSampling();
  profiler.close();
  const bundle = readFileSync(resolve(repoRoot, `bench/.build/workers/${workerOf(name)}.mjs`), "utf8");
  const { total, byFile, byFunction } = allocationsPerEvent(head, bundle, run.sent);
  const kb = (bytes: number) => (bytes / 1024).toFixed(2).padStart(8);
  console.log(`\n${run.sent} events sent, ${run.undelivered ?? 0} without a reply; KiB allocated per event: ${kb(total).trim()}`);
  console.log("\nby source file (KiB per event):");
  for (const { bytesPerEvent, where } of byFile.slice(0, 40)) console.log(`${kb(bytesPerEvent)}  ${where}`);
  console.log("\nby function (KiB per event):");
  for (const { bytesPerEvent, where } of byFunction.slice(0, 60)) console.log(`${kb(bytesPerEvent)}  ${where}`);
}
