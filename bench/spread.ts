import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import type { Sample } from "./load/openLoop";
import { LogTally } from "./report/logTally";
import { describeMachine } from "./report/machine";
import { ReplyLedger, replyTally, spreadPhases } from "./report/spreadPhases";
import { formatTable } from "./report/table";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument, textArgument } from "./runtime/cliArguments";
import { affinityOf, checkPinnable, pinAll } from "./runtime/pinning";
import { repoRoot } from "./runtime/repoRoot";
import { runAtRate } from "./scenarios/runAtRate";
import { layoutsOf, shardsOf, watchBuckets } from "./scenarios/spreadWatch";
import { steadyLoad } from "./scenarios/steadyLoad";
import { SIGNING_SECRET, startSubject } from "./subjects";

// `npm run spread [-- --shard-rate 400 --times 3 --seconds 300 --max-buckets 4 --cool-down-minutes 2
// --drain-seconds 300 --start-second 40 --runtime-core 0 --load-core 1 --overload-wait-ms N --ingests-in-flight-max N --results FILE]` (issue 43 point 4): ONE workspace offered `times`
// one shard's capacity in new threads, with the automatic spread on, pinned as `npm run capacity`
// pins (the runtime on one core, the load and the fake Slack on another). Reports the bucket count
// over time, ack and reply lag under each layout, lost and duplicated replies; writes
// bench/results-spread.json. Loopback only, bounded by a watchdog, stops by itself.
const capacityFile = resolve(repoRoot, "bench/results-capacity.json");
/** The coordinator's last measured one-shard capacity (npm run capacity), the default SPREAD_SHARD_RATE. */
function measuredCapacity(): number {
  const found = (
    JSON.parse(readFileSync(capacityFile, "utf8")) as { found: Array<{ subject: string; result: { rate: number | null } }> }
  ).found;
  const rate = found.find((entry) => entry.subject === "coordinator")?.result.rate;
  if (!rate) throw new Error(`no coordinator capacity in ${capacityFile}: run npm run capacity, or pass --shard-rate`);
  return rate;
}
const shardRate = textArgument("shard-rate") === undefined ? measuredCapacity() : positiveArgument("shard-rate", 1);
const times = positiveArgument("times", 3);
// Long enough for two rises (1 → 2 → 4 buckets: the second waits for a whole minute under the
// first and the cool-down) and a minute under the last: see bench/README.md "A hot workspace spreads by itself".
const seconds = positiveArgument("seconds", 300);
const maxBuckets = positiveArgument("max-buckets", 4);
const drainSeconds = positiveArgument("drain-seconds", 300);
// Not 1: a fall needs every shard unheard-of-warm for the cool-down, and a busy shard reports once a
// minute — with 1 the check after a rise can run just before the next report and halve a hot workspace.
const coolDownMinutes = positiveArgument("cool-down-minutes", 2);
if (!Number.isInteger(coolDownMinutes)) throw new Error("--cool-down-minutes must be a whole number (SPREAD_COOL_DOWN_MINUTES)");
// The load starts at this second of a minute, so its first metrics minute (the watch judges whole
// minutes) is already busy when it ends 60 − this seconds later.
const startSecond = Number(textArgument("start-second") ?? 40);
const cores = { runtime: Number(textArgument("runtime-core") ?? 0), load: Number(textArgument("load-core") ?? 1) };
if (!Number.isInteger(startSecond) || startSecond < 0 || startSecond > 59) throw new Error("--start-second must be 0–59");
const rate = Math.round(shardRate * times);
const WORKSPACE = "TSPREAD0";
/** How long after the load's planned end its requests may still settle and count. */
const LOAD_GRACE_MS = 60_000;
/** SHARD_BUCKETS as the bench leaves it: a workspace starts on one shard. */
const FIRST_BUCKETS = 1;
// --overload-wait-ms: OVERLOAD_WAIT_MS for this run (a huge value turns the shards' refusals off: the control before it).
const overloadWaitMs = textArgument("overload-wait-ms");
// --ingests-in-flight-max: SHARD_INGESTS_IN_FLIGHT_MAX for this run (huge: the edge's bound off).
const inFlightMax = textArgument("ingests-in-flight-max");
// --results: where the JSON goes (a control run beside the committed one).
const resultsFile = resolve(repoRoot, textArgument("results") ?? "bench/results-spread.json");
const settings = {
  SPREAD_AUTOMATIC: "true",
  SPREAD_SHARD_RATE: String(shardRate),
  SPREAD_COOL_DOWN_MINUTES: String(coolDownMinutes),
  SPREAD_MAX_BUCKETS: String(maxBuckets),
  ...(overloadWaitMs === undefined ? {} : { OVERLOAD_WAIT_MS: String(positiveArgument("overload-wait-ms", 1)) }),
  ...(inFlightMax === undefined ? {} : { SHARD_INGESTS_IN_FLIGHT_MAX: String(positiveArgument("ingests-in-flight-max", 1)) }),
};
checkPinnable(cores);
killDescendantsOnExit();
watchdog((60 + 40 + seconds + LOAD_GRACE_MS / 1000 + drainSeconds + 120) * 1000, "npm run spread");

const ledger = new ReplyLedger();
const fake = await startFakeSlackServer({ onCall: (call) => ledger.add(call) });
const load = new LoadClient();
/** The watch's own words on each decision (spreads.ts): when it changed the count, or could not look. */
const spreadLines: string[] = [];
/** The runtime's warnings and errors by message, printed at the end: what a shard past its capacity gave up on. */
const warnings = new LogTally();
const subject = await startSubject({
  name: "coordinator",
  apiUrl: fake.fake.apiUrl,
  stateDir: "spread",
  settings,
  onLog: (level, message) => {
    if (level === "warn" || level === "error") warnings.add(message);
    if (!message.includes("spread:")) return;
    spreadLines.push(message.slice(0, 300));
    console.log(`  runtime: ${message.slice(0, 200)}`);
  },
});
const origin = subject.runtime.url;
const machine = describeMachine();
let forget: NodeJS.Timeout | undefined;
try {
  const pids = pinAll(cores);
  const pinned = { runtime: affinityOf(pids.runtime[0]!), load: affinityOf(process.pid) };
  let runs = 0;
  // The isolate and the workspace's first shard started; a few hundred ingests are nothing to the spread.
  await runAtRate({ load, fake, nextRunId: () => `W${++runs}` }, subject, {
    rate: 100,
    durationMs: 2000,
    workspaces: [WORKSPACE],
  });
  ledger.clear();
  // The ledger keeps what the report needs; the fake's own record of calls and the messages it holds are
  // dropped as they go, so its memory and its cost per call stay flat for minutes.
  forget = setInterval(() => {
    fake.clear();
    fake.fake.forgetMessages();
  }, 5_000);
  const waitMs = (((startSecond - new Date().getSeconds() + 60) % 60) * 1000 || 60_000) - new Date().getMilliseconds();
  console.log(
    `spread: ${WORKSPACE} offered ${rate}/s (${times} × SPREAD_SHARD_RATE ${shardRate}) for ${seconds} s in new threads; ` +
      `SPREAD_MAX_BUCKETS ${maxBuckets}, cool-down ${coolDownMinutes} min; runtime on core ${pinned.runtime}, load on ${pinned.load}. ` +
      `Starting in ${Math.round(waitMs / 1000)} s (second ${startSecond} of a minute)`,
  );
  await new Promise((done) => setTimeout(done, waitMs));
  const startAt = Date.now() + 200;
  const buckets = watchBuckets(origin, WORKSPACE, startAt, 5_000);
  // Replies while the load runs: what an overloaded shard starves (bench/README.md "A shard past its capacity").
  let repliesDuringLoad: number | null = null;
  const loadEnd = setTimeout(() => (repliesDuringLoad = ledger.replied), startAt + seconds * 1000 - Date.now());
  const settledChunks: Sample[][] = [];
  const allSettled = steadyLoad(
    load,
    {
      url: new URL("/slack/events", origin).href,
      rate,
      durationMs: seconds * 1000,
      chunkMs: 10_000,
      startAt,
      workspaces: [WORKSPACE],
      secret: SIGNING_SECRET,
      runId: "S",
      timeoutMs: 10_000,
    },
    (index, chunk) => {
      settledChunks.push([...chunk]);
      const causes = new Map<string, number>();
      for (const s of chunk) {
        const cause =
          s.status >= 200 && s.status < 300 ? "acked" : s.status === 0 ? (s.failure ?? "no answer") : String(s.status);
        causes.set(cause, (causes.get(cause) ?? 0) + 1);
      }
      const shown = [...causes].map(([cause, n]) => `${n} ${cause}`).join(", ");
      console.log(`  chunk ${index + 1} (${chunk.length} events): ${shown}; ${ledger.replied} replies so far`);
    },
  );
  // Overloaded, requests queue for a socket before their 10 s timeout even starts: the report does
  // not wait for them past this grace; the chunks settled by then are what it counts.
  let graceTimer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((done) => {
    graceTimer = setTimeout(() => done(false), startAt + seconds * 1000 + LOAD_GRACE_MS - Date.now());
  });
  allSettled.catch(() => undefined);
  const allChunksSettled = await Promise.race([allSettled.then(() => true as const), grace]);
  clearTimeout(graceTimer);
  clearTimeout(loadEnd);
  repliesDuringLoad ??= ledger.replied;
  const samples = settledChunks.flat();
  // Refused by an overloaded shard or not recorded in time: 503 either way (the runtime's log tells which).
  const refused = samples.filter((sample) => sample.status === 503).length;
  const chunksUnsettled = Math.ceil(seconds / 10) - settledChunks.length;
  if (!allChunksSettled)
    console.log(`  ${chunksUnsettled} chunk(s) still unsettled ${LOAD_GRACE_MS / 1000} s after the load: left out`);
  const loadEndedS = Math.round((Date.now() - startAt) / 1000);
  // Bounded wait for the replies still owed (a backlog recorded under overload is delivered after).
  const owed = () => replyTally(samples, (thread) => ledger.firstReplyAt(thread)).undelivered;
  const drainUntil = Date.now() + drainSeconds * 1000;
  while (owed() > 0 && Date.now() < drainUntil) {
    await new Promise((done) => setTimeout(done, 5_000));
    console.log(`  draining: ${owed()} acked events without a reply yet`);
  }
  await buckets.stop();
  // Still overloaded, the admin API may not answer in time: the last layouts read, and no shard figures.
  const layouts = await layoutsOf(origin, WORKSPACE).then(
    (read) => read.layouts,
    () => buckets.layouts(),
  );
  const shards = await shardsOf(origin, WORKSPACE, Math.ceil((Date.now() - startAt) / 60_000) + 2).catch(() => null);
  const firstReplyAt = (thread: string) => ledger.firstReplyAt(thread);
  const phases = spreadPhases(samples, layouts, FIRST_BUCKETS, firstReplyAt);
  const tally = replyTally(samples, firstReplyAt);
  const outboxPending = shards?.reduce((sum, shard) => sum + shard.outboxPending, 0) ?? null;
  const duplicates = ledger.duplicates();
  // Lost only once nothing is left to deliver: an acked event still in an outbox is owed, not lost.
  const lost = outboxPending === 0 ? tally.undelivered : null;

  console.log(
    `\n${formatTable(
      ["buckets", "reason", "from", "sent", "acked", "non-2xx", "ack p99", "reply p50", "reply p99", "lag p99", "no reply"],
      phases.map((phase) => [
        phase.buckets,
        phase.busy === undefined ? phase.reason : `${phase.reason} ${Math.round(phase.busy * 100)} %`,
        `+${Math.round((Date.parse(phase.from) - startAt) / 1000)} s`,
        phase.sent,
        phase.acked,
        phase.non2xx,
        phase.ack.p99,
        phase.reply.p50,
        phase.reply.p99,
        phase.lag.p99,
        phase.undelivered,
      ]),
    )}`,
  );
  console.log(`\nshards: ${(shards ?? []).map((shard) => `${shard.shard} ${shard.accepted} accepted`).join(", ")}`);
  console.log(
    `acked ${tally.acked} of ${samples.length}; lost ${lost ?? `unknown (${outboxPending ?? "?"} still in outboxes)`}; ` +
      `duplicates ${duplicates.events}; replies to unacked events ${tally.repliedUnacked}; ` +
      `503 ${refused}; replies during the load ${repliesDuringLoad}`,
  );
  console.log(warnings.summary());
  const commit = execSync("git rev-parse --short HEAD", { cwd: repoRoot, encoding: "utf8" }).trim();
  const file = resultsFile;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        at: new Date(startAt).toISOString(),
        commit,
        machine,
        cores: pinned,
        settings,
        offered: { rate, times, shardRate, seconds, workspace: WORKSPACE },
        loadEndedS,
        chunksUnsettled,
        buckets: buckets.readings,
        bucketReadingsFailed: buckets.failed(),
        spreadLines,
        layouts: layouts.map((layout) => ({ ...layout, effectiveAt: new Date(layout.effectiveAt).toISOString() })),
        phases,
        shards,
        sent: samples.length,
        acked: tally.acked,
        refused,
        repliesDuringLoad,
        undelivered: tally.undelivered,
        outboxPending,
        lost,
        duplicates,
        repliedUnacked: tally.repliedUnacked,
        runtimeErrors: subject.logs.errors,
        firstErrors: subject.logs.firstErrors,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${file}`);
} finally {
  clearInterval(forget);
  await subject.runtime.stop();
  load.close();
  await fake.close();
}
