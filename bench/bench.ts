import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { FULL_PLAN, QUICK_PLAN, workspaces } from "./plan";
import { describeMachine } from "./report/machine";
import { printBench } from "./report/printBench";
import { printDollars, printStatementRows } from "./report/printDollars";
import { printStreams } from "./report/printStreams";
import { printWaits } from "./report/printWaits";
import { judgeTargets } from "./report/targets";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { repoRoot } from "./runtime/repoRoot";
import { benchBacklog } from "./scenarios/backlogBench";
import type { BenchContext } from "./scenarios/benchContext";
import { measureDollars } from "./scenarios/dollarsBench";
import { findMaxSustained, type MaxSustained } from "./scenarios/maxSustained";
import { compareOAuth, installWorkspaces } from "./scenarios/oauthOverhead";
import { compareRelay } from "./scenarios/relayOverhead";
import { COST_WORKSPACES, startRowsPerEvent } from "./scenarios/rowsPerEvent";
import { type RunResult, runAtRate } from "./scenarios/runAtRate";
import { measureStreams } from "./scenarios/streams";
import { SUSTAINED_RULE } from "./scenarios/sustained";
import { measureWaits, WAIT_PLAN } from "./scenarios/waits";
import { oauthSettings, relaySettings, type Subject, startSubject } from "./subjects";

type Compared = "coordinator" | "floor" | "slack-edge" | "slack-edge-same-work";

// `npm run bench [-- --quick]`: the coordinator, a floor and slack-edge side by side in workerd
// (Miniflare's API, no wrangler proxy), open-loop load from a separate process, a fake Slack.
const quick = process.argv.includes("--quick");
const plan = quick ? QUICK_PLAN : FULL_PLAN;
killDescendantsOnExit();
watchdog(plan.deadlineMs, "npm run bench");

const startedAt = new Date();
const machine = describeMachine();
console.log(
  `bench${quick ? " --quick" : ""}: ${machine.cores} × ${machine.cpu}, node ${machine.node}, workerd ${machine.workerd}, load average ${machine.loadAverageAtStart.join(" ")}`,
);

if (process.argv.includes("--streams")) {
  // The stream scenarios alone (their own fake Slack and coordinator): bench/results-streams.json.
  const streams = await measureStreams(plan.streams);
  printStreams(streams);
  const file = resolve(repoRoot, "bench/results-streams.json");
  const ended = { ...machine, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100) };
  writeFileSync(file, `${JSON.stringify({ generatedAt: startedAt.toISOString(), machine: ended, streams }, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
  process.exit(0);
}

if (process.argv.includes("--waits")) {
  // Durable waits alone (issue 30, point 7; their own fake Slack and coordinators): bench/results-waits.json.
  watchdog(4 * 60_000, "npm run bench -- --waits");
  const waits = await measureWaits(WAIT_PLAN);
  printWaits(waits);
  const file = resolve(repoRoot, "bench/results-waits.json");
  const ended = { ...machine, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100) };
  writeFileSync(file, `${JSON.stringify({ generatedAt: startedAt.toISOString(), machine: ended, waits }, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
  process.exit(0);
}

if (process.argv.includes("--backlog")) {
  // The coordinator at 0 … 1M pending rows in one shard (issue 40, point 6): bench/results-backlog.json.
  await benchBacklog(machine, startedAt);
  process.exit(0);
}

const fake = await startFakeSlackServer();
const load = new LoadClient();
let runs = 0;
const context: BenchContext = { load, fake, nextRunId: () => `R${++runs}` };
const apiUrl = fake.fake.apiUrl;

console.log("starting the runtimes …");
const subjects = {
  coordinator: await startSubject({ name: "coordinator", apiUrl, stateDir: "bench/coordinator" }),
  floor: await startSubject({ name: "floor", apiUrl, stateDir: "bench/floor" }),
  "slack-edge": await startSubject({ name: "slack-edge", apiUrl, stateDir: "bench/slack-edge" }),
  // The fair comparison (issue 13): slack-edge doing the example app's work, placeholder then update.
  "slack-edge-same-work": await startSubject({ name: "slack-edge-same-work", apiUrl, stateDir: "bench/slack-edge-same-work" }),
} satisfies Record<Compared, Subject>;
const ingestOnly = await startSubject({ name: "ingest-only", apiUrl, stateDir: "bench/ingest-only" });
// The same coordinator build in OAuth mode, its workspaces installed through the install flow,
// and beside it a fresh single-workspace one with the same history: comparing with the ladder's
// coordinator (tens of thousands of events warmer) measured a gap between two identical builds.
const singleTwin = await startSubject({ name: "coordinator", apiUrl, stateDir: "bench/coordinator-twin" });
const oauth = await startSubject({
  name: "coordinator-oauth",
  apiUrl,
  stateDir: "bench/coordinator-oauth",
  settings: oauthSettings(fake.origin),
});
// Relay mode alone (no listeners), forwarding to the fake's /relay, beside the same twin.
const relay = await startSubject({
  name: "coordinator-relay",
  apiUrl,
  stateDir: "bench/coordinator-relay",
  settings: relaySettings(fake.origin),
});
const oauthWorkspaces = workspaces(Math.max(plan.oauth.workspaces, ...plan.scalingWorkspaces));
await installWorkspaces(oauth, fake.fake, oauthWorkspaces);
const metered = await startSubject({
  name: "coordinator",
  worker: "coordinatorMetered",
  apiUrl,
  stateDir: "bench/cost",
  settings: { RECEIPT_RETENTION_HOURS: String(plan.cost.receiptRetentionHours) },
});
// The same cost scenario in OAuth mode: tokens must be read, not written, per event.
const meteredOAuth = await startSubject({
  name: "coordinator-oauth",
  worker: "coordinatorMetered",
  apiUrl,
  stateDir: "bench/cost-oauth",
  settings: { RECEIPT_RETENTION_HOURS: String(plan.cost.receiptRetentionHours), ...oauthSettings(fake.origin) },
});
await installWorkspaces(meteredOAuth, fake.fake, COST_WORKSPACES);
// For dollars per million events: the coordinator's counts (the metered build, its own shard and
// tallies, apart from the cost scenario's) and the seeds' own D1 design.
const costedCoordinator = await startSubject({
  name: "coordinator",
  worker: "coordinatorMetered",
  apiUrl,
  stateDir: "bench/dollars-coordinator",
});
const seed = await startSubject({ name: "seed-d1", apiUrl, stateDir: "bench/seed-d1" });

try {
  console.log(
    `\nrows written per event: ${plan.cost.rate}/s for ${plan.cost.durationMs / 1000} s, then waiting for pruning (the other scenarios run meanwhile)`,
  );
  const finishCost = await startRowsPerEvent(context, metered, plan.cost);
  console.log("the same in OAuth mode (its workspaces installed):");
  const finishCostOAuth = await startRowsPerEvent(context, meteredOAuth, plan.cost);

  console.log("\nwarm-up, not measured: JIT, connections and every shard the runs use are created first");
  for (const subject of [...Object.values(subjects), ingestOnly, singleTwin, oauth, relay, costedCoordinator, seed]) {
    await runAtRate(context, subject, {
      rate: 100,
      durationMs: 2000,
      workspaces: workspaces(Math.max(...plan.scalingWorkspaces)),
    });
  }

  console.log("\nack latency at fixed offered rates, side by side:");
  const fixed: RunResult[] = [];
  for (const rate of plan.fixedRates) {
    for (const subject of Object.values(subjects)) {
      fixed.push(await runAtRate(context, subject, { rate, durationMs: plan.fixedMs, workspaces: workspaces(1) }));
    }
  }

  console.log(`\nwhere the coordinator's CPU goes: its ingest alone (no effects planned) at ${plan.breakdownRate}/s`);
  const ingestRun = await runAtRate(context, ingestOnly, {
    rate: plan.breakdownRate,
    durationMs: plan.fixedMs,
    workspaces: workspaces(1),
  });
  const cpuAt = (name: Compared) =>
    fixed.find((r) => r.subject === name && r.rate === plan.breakdownRate)?.runtimeCpuMsPerEvent ?? null;
  const cpuPerEvent = {
    rate: plan.breakdownRate,
    floor: cpuAt("floor"),
    ingestOnly: ingestRun.runtimeCpuMsPerEvent,
    coordinator: cpuAt("coordinator"),
    slackEdge: cpuAt("slack-edge"),
    slackEdgeSameWork: cpuAt("slack-edge-same-work"),
    ingestOnlyRun: ingestRun,
  };

  console.log(
    `\ndollars per million events: the metered coordinator and the seeds' D1 design at ${plan.breakdownRate}/s (the others' counts are their runs above)`,
  );
  const dollars = await measureDollars(
    context,
    { coordinator: costedCoordinator, seed },
    { rate: plan.breakdownRate, durationMs: plan.fixedMs, fixed },
  );

  console.log(`\nhighest sustained rate (${SUSTAINED_RULE}):`);
  const maxSustained: Partial<Record<Compared, MaxSustained>> = {};
  for (const name of plan.searchSubjects) {
    // Start one rung above the highest fixed rate it sustained; the search steps down if that fails.
    const passed = fixed.filter((r) => r.subject === name && r.sustained).map((r) => r.rate);
    maxSustained[name] = await findMaxSustained(context, subjects[name], {
      ladder: plan.ladder,
      startRate: passed.length ? Math.max(...passed) + 1 : plan.ladder[0]!,
      stepMs: plan.stepMs,
      workspaces: workspaces(1),
    });
  }

  console.log("\nscaling across workspaces (one shard each):");
  const scaling = [];
  for (const count of plan.scalingWorkspaces) {
    const atRate =
      count === 1
        ? (fixed.find((r) => r.subject === "coordinator" && r.rate === plan.scalingRate) ??
          (await runAtRate(context, subjects.coordinator, {
            rate: plan.scalingRate,
            durationMs: plan.fixedMs,
            workspaces: workspaces(1),
          })))
        : await runAtRate(context, subjects.coordinator, {
            rate: plan.scalingRate,
            durationMs: plan.fixedMs,
            workspaces: workspaces(count),
          });
    const search =
      count === 1
        ? (maxSustained.coordinator ?? null)
        : plan.scalingSearch
          ? await findMaxSustained(context, subjects.coordinator, {
              ladder: plan.ladder,
              startRate: maxSustained.coordinator?.rate ?? plan.ladder[0]!,
              stepMs: plan.stepMs,
              workspaces: workspaces(count),
            })
          : null;
    scaling.push({ workspaces: count, atRate, maxSustained: search });
  }

  const compareAt = async (rate: number) => {
    console.log(
      `\nOAuth mode vs single-workspace mode: ${rate}/s over ${plan.oauth.workspaces} installed workspaces, ${plan.oauth.rounds} interleaved runs each`,
    );
    return compareOAuth(context, singleTwin, oauth, {
      rate,
      durationMs: plan.oauth.durationMs,
      rounds: plan.oauth.rounds,
      workspaces: workspaces(plan.oauth.workspaces),
      oauthStateDir: resolve(repoRoot, "bench/.state", "bench/coordinator-oauth"),
    });
  };
  console.log("\nwarming the pair up alike (not measured)");
  for (const subject of [singleTwin, oauth]) {
    await runAtRate(context, subject, {
      rate: plan.oauth.unsaturatedRate,
      durationMs: plan.oauth.durationMs,
      workspaces: workspaces(plan.oauth.workspaces),
    });
  }
  const oauthUnsaturated = await compareAt(plan.oauth.unsaturatedRate);
  const oauthOverhead = await compareAt(plan.oauth.rate);

  const compareRelayAt = (rate: number) => {
    console.log(
      `\nrelay mode vs the embedded example: ${rate}/s over ${plan.relay.workspaces} workspaces, ${plan.relay.rounds} interleaved runs each`,
    );
    return compareRelay(context, singleTwin, relay, {
      rate,
      durationMs: plan.relay.durationMs,
      rounds: plan.relay.rounds,
      workspaces: workspaces(plan.relay.workspaces),
    });
  };
  // The relay subject warmed up like the twin (which the OAuth comparison has warmed).
  await runAtRate(context, relay, {
    rate: plan.relay.unsaturatedRate,
    durationMs: plan.relay.durationMs,
    workspaces: workspaces(plan.relay.workspaces),
  });
  const relayUnsaturated = await compareRelayAt(plan.relay.unsaturatedRate);
  const relayOverhead = await compareRelayAt(plan.relay.rate);

  console.log(
    `\nstreamed replies: ${plan.streams.perMinute}/min over ${plan.streams.workspaces} workspaces, then ${plan.streams.concurrent} at once in one`,
  );
  const streams = await measureStreams(plan.streams);

  console.log("\nwaiting for the cost scenario's receipts to be pruned …");
  const cost = await finishCost();
  const costOAuth = await finishCostOAuth();

  const lookups = fake.historyReads();
  const targets = judgeTargets({
    ladder: fixed,
    ours: maxSustained.coordinator!,
    cost,
    oauth: oauthOverhead,
    costOAuth,
    lookups,
  });
  const results = {
    generatedAt: startedAt.toISOString(),
    durationS: Math.round((Date.now() - startedAt.getTime()) / 1000),
    mode: quick ? "quick" : "full",
    machine: { ...machine, loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100) },
    plan,
    fixed,
    maxSustained,
    scaling,
    cpuPerEvent,
    dollars,
    cost,
    costOAuth,
    oauthOverhead,
    oauthUnsaturated,
    relayOverhead,
    relayUnsaturated,
    streams,
    lookups,
    targets,
    runtimeLogs: {
      ...Object.fromEntries([...Object.values(subjects), ingestOnly, oauth, relay].map((s) => [s.name, s.logs])),
      "coordinator (twin for OAuth)": singleTwin.logs,
      "coordinator (metered)": metered.logs,
      "coordinator-oauth (metered)": meteredOAuth.logs,
      "coordinator (metered, dollars)": costedCoordinator.logs,
      "seed-d1": seed.logs,
    },
  };
  printBench(results);
  printStreams(streams);
  printStatementRows(dollars.subjects);
  printDollars(dollars.subjects);
  const file = resolve(repoRoot, quick ? "bench/results-quick.json" : "bench/results.json");
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
} finally {
  for (const subject of [
    ...Object.values(subjects),
    ingestOnly,
    singleTwin,
    oauth,
    relay,
    metered,
    meteredOAuth,
    costedCoordinator,
    seed,
  ])
    await subject.runtime.stop();
  load.close();
  await fake.close();
}
