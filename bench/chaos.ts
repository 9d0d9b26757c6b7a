import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { CHAOS_FAKE_STREAM_MAX_OPEN_MS, CHAOS_SETTINGS, FULL_CHAOS, SHORT_CHAOS } from "./chaos/chaosPlan";
import { CoordinatorProcess } from "./chaos/coordinatorProcess";
import { pendingRowsOf } from "./chaos/pendingRows";
import { chaosHeld, printChaos } from "./chaos/printChaos";
import { heldBy, repliesOf, replyDelays } from "./chaos/replyDelays";
import { DepthSamples, reportOutage, SlackOutage } from "./chaos/slackOutage";
import { runSlackTraffic, type TrafficEvent } from "./chaos/slackTraffic";
import { streamAttempts } from "./chaos/streamAttempts";
import { type Outage, verifyDelivery } from "./chaos/verifyDelivery";
import { verifyStreams } from "./chaos/verifyStreams";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { randomFaults, seededRandom, withStreamCalls } from "./fakeSlack/randomFaults";
import { describeMachine } from "./report/machine";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { repoRoot } from "./runtime/repoRoot";
import { ADMIN_TOKEN, SIGNING_SECRET } from "./subjects";

// `npm run chaos [-- --short]`: Slack-like traffic with retries, a faulty fake Web API and
// SIGKILLs of the runtime on persisted state; then every acked event must have its reply, and
// every acked streamed request its complete answer, none left streaming.
const short = process.argv.includes("--short");
// `-- --no-history-scopes`: the app cannot read conversations back, so an uncertain post is posted
// again (at least once): the run without them shows what the lookups are there to prevent.
const historyScopes = !process.argv.includes("--no-history-scopes");
// `-- --seed N`: another seeded run (faults, kills, traffic); the plan's seed (5) unless told.
const seedAt = process.argv.indexOf("--seed");
const plan = { ...(short ? SHORT_CHAOS : FULL_CHAOS) };
if (seedAt >= 0) plan.seed = Number(process.argv[seedAt + 1]);
if (!Number.isInteger(plan.seed)) throw new Error("--seed takes an integer");
// `-- --stream-lost-answers`: stream calls' answers are lost too (applied, answer lost), as posts' are.
const streamLostAnswers = process.argv.includes("--stream-lost-answers");
if (streamLostAnswers) plan.faults = withStreamCalls(plan.faults);
killDescendantsOnExit();
watchdog(plan.deadlineMs, "npm run chaos");
const startedAt = Date.now();
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const clock = () => `${Math.round((Date.now() - startedAt) / 1000)}s`.padStart(5);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

const stateDir = resolve(repoRoot, "bench/.state/chaos");
rmSync(stateDir, { recursive: true, force: true });
mkdirSync(stateDir, { recursive: true });
const random = seededRandom(plan.seed);
// Slack's outage, timed from the load's start; outside it, the random faults.
const slackOutage = new SlackOutage(plan.outage, randomFaults(plan.faults, random));
const fake = await startFakeSlackServer({
  faultFor: slackOutage.faultFor,
  maxHangMs: 5_000,
  fake: { streamMaxOpenMs: CHAOS_FAKE_STREAM_MAX_OPEN_MS, historyScopes },
});
const port = await freePort();
const workspaces = Array.from({ length: plan.workspaces }, (_, i) => `TCHAOS${i}`);
const coordinator = new CoordinatorProcess(
  {
    // The coordinator with the bench's app: the example's placeholder-then-update, or a streamed count.
    worker: "coordinatorStreams",
    port,
    persistTo: resolve(stateDir, "persist"),
    bindings: {
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_BOT_TOKEN: "xoxb-chaos-token",
      SLACK_API_URL: fake.fake.apiUrl,
      ADMIN_TOKEN,
      ...CHAOS_SETTINGS,
    },
  },
  resolve(stateDir, "runtime.log"),
);
const base = `http://127.0.0.1:${port}`;

/** Restarts until serving: the killed workerd may hold the port for a moment. */
async function restart(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await coordinator.start();
    } catch (error) {
      if (attempt >= 5) throw error;
      await sleep(500);
    }
  }
}

/** An admin API read (docs/guides/operations.md), as JSON. */
async function admin(path: string): Promise<unknown> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return await response.json();
}

async function pendingRows(): Promise<{ pending: number; parked: number }> {
  const total = { pending: 0, parked: 0 };
  for (const workspace of workspaces) {
    const response = await fetch(`${base}/admin/shards/${workspace}/0`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const { outbox } = (await response.json()) as { outbox: { pending: number; parked: number } };
    total.pending += outbox.pending;
    total.parked += outbox.parked;
  }
  return total;
}

const outages: Outage[] = [];
const depth = new DepthSamples();
let exitCode = 1;
try {
  console.log(
    `chaos${short ? " --short" : ""}${historyScopes ? "" : " --no-history-scopes"}: ${plan.rate} events/s for ${plan.durationMs / 1000} s over ${plan.workspaces} workspaces, ${plan.kills} SIGKILLs, fake Slack faults ${JSON.stringify(plan.faults)}, Slack retries compressed ${plan.compression}×, seed ${plan.seed}`,
  );
  await restart();
  console.log(`${clock()} coordinator serving on ${base} (state in ${stateDir})`);

  // One kill at a random moment in each of `kills` equal slots of the load's middle 80 %: spread
  // out, so Slack's compressed retries (0 s, 6 s, 30 s) can outlive an outage, as they would in life.
  const slot = (plan.durationMs * 0.8) / plan.kills;
  const killTimes = Array.from({ length: plan.kills }, (_, i) => plan.durationMs * 0.1 + slot * (i + random()));
  const killer = (async () => {
    for (const at of killTimes) {
      await sleep(Math.max(0, startedAt + at - Date.now()));
      const outage: Outage = { killedAt: Date.now(), readyAt: null };
      outages.push(outage);
      await coordinator.kill();
      console.log(`${clock()} SIGKILL #${outages.length} (runtime and workerd)`);
      await sleep(plan.downMs[0] + (plan.downMs[1] - plan.downMs[0]) * random());
      await restart();
      outage.readyAt = Date.now();
      console.log(`${clock()} restarted on the same state after ${((outage.readyAt - outage.killedAt) / 1000).toFixed(1)} s`);
    }
  })();

  const { atMs, durationMs, status } = plan.outage;
  console.log(
    `${clock()} load starts; Slack answers ${status} to every Web API call from ${atMs / 1000} s to ${(atMs + durationMs) / 1000} s of it`,
  );
  slackOutage.begin(Date.now());
  depth.start(pendingRows);
  const events: TrafficEvent[] = await runSlackTraffic({
    url: `${base}/slack/events`,
    secret: SIGNING_SECRET,
    rate: plan.rate,
    durationMs: plan.durationMs,
    workspaces,
    compression: plan.compression,
    random,
    streams: plan.streams,
    sleeps: plan.sleeps,
    onProgress: (sofar) =>
      console.log(
        `${clock()} ${sofar.length} events sent, ${sofar.filter((e) => e.result?.acked).length} acked, ${fake.calls.length} fake Slack calls`,
      ),
  });
  await killer;

  console.log(`${clock()} load and Slack's retries done; waiting (≤ ${plan.quiesceMs / 1000} s) until no outbox row is pending`);
  const quiesceBy = Date.now() + plan.quiesceMs;
  let rows = await pendingRows();
  for (let polls = 1; rows.pending > 0 && Date.now() < quiesceBy; polls++) {
    await sleep(1000);
    rows = await pendingRows();
    if (polls % 10 === 0) console.log(`${clock()} ${rows.pending} pending, ${rows.parked} parked`);
  }
  const quiescent = rows.pending === 0;
  const quiescentAfterS = quiescent ? Math.round((Date.now() - (quiesceBy - plan.quiesceMs)) / 1000) : null;
  await depth.stop();
  // Not quiescent: which rows were still draining, and why (their attempts, last error, last calls).
  const pending = quiescent ? [] : await pendingRowsOf(admin, workspaces);
  console.log(`${clock()} ${quiescent ? "quiescent" : "NOT quiescent"}: ${rows.pending} pending, ${rows.parked} parked`);

  const plain = events.filter((event) => event.expected === undefined);
  const verdict = verifyDelivery(
    plain,
    fake.calls,
    outages,
    coordinator.notable,
    Number(CHAOS_SETTINGS.LEASE_MS),
    (channel, ts) => fake.fake.message(channel, ts)?.thread_ts,
  );
  const sleptIds = new Set(plain.filter((event) => event.sleeps).map((event) => event.eventId));
  const sleeps = {
    events: sleptIds.size,
    acked: plain.filter((event) => event.sleeps && event.result?.acked).length,
    lost: verdict.lost.filter((event) => sleptIds.has(event.eventId)).length,
    unfinished: verdict.unfinished.filter((event) => sleptIds.has(event.eventId)).length,
  };
  const attempts = await streamAttempts(admin, events);
  const readBack = (channel: string, thread: string) => fake.fake.messagesIn(channel, thread);
  const streams = { ...verifyStreams(events, readBack, fake.calls, attempts.unsettled), attempts };
  const replied = repliesOf(plain, fake.calls);
  const outage = reportOutage(slackOutage, depth, heldBy(replied, slackOutage), startedAt);
  const interruptedStarts = coordinator.notable.filter((note) =>
    note.msg.startsWith("a stream's interrupted start was not found"),
  ).length;
  const results = {
    generatedAt: new Date(startedAt).toISOString(),
    durationS: Math.round((Date.now() - startedAt) / 1000),
    mode: short ? "short" : "full",
    historyScopes,
    machine: describeMachine(),
    plan,
    settings: CHAOS_SETTINGS,
    outages: outages.map((o) => ({
      atS: Math.round((o.killedAt - startedAt) / 100) / 10,
      downS: o.readyAt ? Math.round((o.readyAt - o.killedAt) / 100) / 10 : null,
    })),
    startedAtMs: startedAt,
    outage,
    replyDelays: replyDelays(replied, outages, startedAt, slackOutage),
    quiescent,
    quiescentAfterS,
    outbox: rows,
    pending: pending.slice(0, 50),
    verdict: {
      ...verdict,
      lost: verdict.lost.slice(0, 50),
      unfinished: verdict.unfinished.slice(0, 50),
      lostCount: verdict.lost.length,
      unfinishedCount: verdict.unfinished.length,
    },
    streams: { ...streams, interruptedStarts },
    sleeps,
    notableLogLines: coordinator.notable.length,
  };
  printChaos(results);
  const file = resolve(repoRoot, `bench/chaos-results${short ? "-short" : ""}${historyScopes ? "" : "-no-history-scopes"}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${file}; runtime log in ${resolve(stateDir, "runtime.log")}`);
  exitCode = chaosHeld(results) ? 0 : 1;
} finally {
  await depth.stop();
  await coordinator.stop();
  await fake.close();
}
process.exit(exitCode);
