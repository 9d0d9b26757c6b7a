import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { callersOf, Profiler, selfTime } from "./profile/cpuProfile";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument } from "./runtime/cliArguments";
import { repoRoot } from "./runtime/repoRoot";
import { runAtRate } from "./scenarios/runAtRate";
import { startSubject, subjectArgument, workerOf } from "./subjects";

// `npm run profile [-- --rate 300 --seconds 5 --subject coordinator]`: a V8 CPU profile of the
// coordinator (the Worker and its shards share one isolate in workerd) under the bench's load at
// one rate, to see where its CPU per event goes; `--subject slack-edge-same-work` profiles the
// reference under the same load. Loopback only, bounded, stops by itself.
const name = subjectArgument();
const rate = positiveArgument("rate", 300);
const seconds = positiveArgument("seconds", 5);
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
  await profiler.start(200);
  const run = await runAtRate(context, subject, { rate, durationMs: seconds * 1000, workspaces: workspaces(1) });
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
} finally {
  await subject.runtime.stop();
  load.close();
  await fake.close();
}
