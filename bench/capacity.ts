import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { describeMachine } from "./report/machine";
import { formatTable } from "./report/table";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument, textArgument } from "./runtime/cliArguments";
import { affinityOf, checkPinnable, pinAll } from "./runtime/pinning";
import { repoRoot } from "./runtime/repoRoot";
import { findMaxSustained, type MaxSustained } from "./scenarios/maxSustained";
import { runAtRate } from "./scenarios/runAtRate";
import { SUSTAINED_RULE } from "./scenarios/sustained";
import { startSubject, subjectsArgument } from "./subjects";

// `npm run capacity [-- --ladder 100,200,300 --step-seconds 5 --subjects coordinator,slack-edge-same-work
// --runtime-core 0 --load-core 1]` (issue 43 point 3): the highest rate ONE shard sustains by the bench's
// rule, with the subject's workerd pinned to one core and the load generator, the fake Slack and
// this harness to another (taskset), so the subject has a core to itself and the load never
// competes with it. One workspace (one shard for the coordinator). Loopback only, bounded, stops by itself.
const ladder = (textArgument("ladder") ?? "100,150,200,250,300,400,500,650,800,1000")
  .split(",")
  .map(Number)
  .filter((rate) => Number.isFinite(rate) && rate > 0);
if (ladder.length === 0) throw new Error("--ladder must list rates, e.g. 100,200,300");
const stepSeconds = positiveArgument("step-seconds", 5);
const cores = { runtime: Number(textArgument("runtime-core") ?? 0), load: Number(textArgument("load-core") ?? 1) };
const subjects = subjectsArgument(
  "subjects",
  ["coordinator", "slack-edge-same-work", "slack-edge"],
  ["coordinator", "slack-edge-same-work"],
);
checkPinnable(cores);
killDescendantsOnExit();
// Each subject: a warm-up and at most every ladder step, each with its bounded wait for replies.
watchdog(subjects.length * (ladder.length + 1) * (stepSeconds * 1000 + 150_000) + 60_000, "npm run capacity");

const fake = await startFakeSlackServer();
const load = new LoadClient();
let runs = 0;
const context = { load, fake, nextRunId: () => `K${++runs}` };
console.log(
  `capacity: ${subjects.join(", ")} — one shard, runtime on core ${cores.runtime}, load and fake Slack on core ${cores.load}; ladder ${ladder.join(", ")}/s, ${stepSeconds} s a step`,
);
console.log(`sustained = ${SUSTAINED_RULE}`);
const found: Array<{ subject: string; pinned: { runtime: string; load: string }; result: MaxSustained }> = [];
try {
  for (const name of subjects) {
    const subject = await startSubject({ name, apiUrl: fake.fake.apiUrl, stateDir: "capacity" });
    try {
      const pids = pinAll(cores);
      const pinned = { runtime: affinityOf(pids.runtime[0]!), load: affinityOf(process.pid) };
      await runAtRate(context, subject, { rate: 100, durationMs: 2000, workspaces: workspaces(1) });
      const result = await findMaxSustained(context, subject, {
        ladder,
        startRate: ladder[0]!,
        stepMs: stepSeconds * 1000,
        workspaces: workspaces(1),
      });
      found.push({ subject: name, pinned, result });
      const rate =
        result.rate === null
          ? "none of the ladder"
          : `${result.rate}/s${result.capped ? " (the ladder's top: higher not tried)" : ""}`;
      console.log(`  ${name}: sustained ${rate}`);
    } finally {
      await subject.runtime.stop();
    }
  }
} finally {
  load.close();
  await fake.close();
}

const rows = found.flatMap(({ subject, result }) =>
  result.steps.map((step) => [
    subject,
    step.rate,
    step.sustained ? "yes" : "no",
    step.ack.p99?.toFixed(1) ?? "–",
    step.delivery?.p99?.toFixed(1) ?? "–",
    step.backlogS?.toFixed(2) ?? "–",
    step.non2xx,
    step.runtimeCpuMsPerEvent?.toFixed(2) ?? "–",
    step.generatorCpu.toFixed(2),
  ]),
);
console.log(
  `\n${formatTable(["subject", "rate/s", "sustained", "ack p99", "reply p99", "owed s", "non-2xx", "CPU ms/event", "generator core"], rows)}`,
);
for (const { subject, result } of found) console.log(`${subject}: one shard sustains ${result.rate ?? "none"}/s`);
const file = resolve(repoRoot, "bench/results-capacity.json");
const commit = execSync("git rev-parse --short HEAD", { cwd: repoRoot, encoding: "utf8" }).trim();
writeFileSync(
  file,
  JSON.stringify(
    { at: new Date().toISOString(), commit, machine: describeMachine(), cores, stepSeconds, ladder, rule: SUSTAINED_RULE, found },
    null,
    2,
  ),
);
console.log(`\nwrote ${file}`);
