import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { Profiler } from "./profile/cpuProfile";
import { describeMachine } from "./report/machine";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument } from "./runtime/cliArguments";
import { repoRoot } from "./runtime/repoRoot";
import { SIGNING_SECRET, startSubject } from "./subjects";

// `npm run soak -- --minutes N [--rate 100 --workspaces 4 --channels 200 --pacing]`: one coordinator
// under steady load for N minutes, its isolate's JS heap after a full collection once a
// minute — the Worker and every shard it hosts share that isolate, and a Durable Object's
// has 128 MB. Each minute is a run of its own channels, so the channels (rate keys,
// destinations) seen grow all along. Loopback only, bounded, stops by itself.
const MAX_MINUTES = 120;
const minutes = positiveArgument("minutes", 10);
if (minutes > MAX_MINUTES) throw new Error(`--minutes: at most ${MAX_MINUTES}`);
const rate = positiveArgument("rate", 100);
const workspaceCount = positiveArgument("workspaces", 4);
const channels = positiveArgument("channels", 200);
/**
 * Pacing by Slack's limits, as deployed. Off by default, as in the bench: the example app's
 * chat.update is Tier 3 (50 a minute per workspace), so at 100/s over a few workspaces paced
 * rows would pile up without end; with `--workspaces 150` the load stays under every limit.
 */
const pacing = process.argv.includes("--pacing");
const INSPECTOR_PORT = 9341;
/** The heap's used size is also read this often between collections: the peak V8 let it reach. */
const POLL_MS = 2_000;
const MiB = (bytes: number) => Math.round((bytes / 2 ** 20) * 100) / 100;
killDescendantsOnExit();
watchdog((minutes + 5) * 60_000, "npm run soak");

interface Sample {
  minute: number;
  /** Seconds since the load started (each minute's events are signed before it is sent). */
  elapsedS: number;
  /** JS heap used right after a forced major collection: what the isolate keeps alive. */
  heapAfterGcMiB: number;
  heapTotalMiB: number;
  /** The most the used heap reached during the minute (read every POLL_MS), before V8 collected it. */
  peakUsedMiB: number;
  acks: number;
  non2xx: number;
  p99Ms: number;
  /** Calls the fake Slack got during the minute: about two per event (placeholder, then its update). */
  webApiCalls: number;
}

const machine = describeMachine();
const fake = await startFakeSlackServer();
const load = new LoadClient();
const subject = await startSubject({
  name: "coordinator",
  apiUrl: fake.fake.apiUrl,
  stateDir: "soak",
  inspectorPort: INSPECTOR_PORT,
});
const profiler = await Profiler.connect(INSPECTOR_PORT, "coordinator");
const samples: Sample[] = [];
const startedAt = new Date().toISOString();
const file = resolve(repoRoot, "bench/soak-results.json");
const save = () =>
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, machine, settings: { minutes, rate, workspaces: workspaceCount, channels, pacing }, samples }, null, 2)}\n`,
  );

async function heapAfterCollection(): Promise<{ used: number; total: number }> {
  await profiler.collectGarbage();
  const { usedSize, totalSize } = await profiler.heapUsage();
  return { used: usedSize, total: totalSize };
}

try {
  const job = (runId: string, durationMs: number) => ({
    url: new URL("/slack/events", subject.runtime.url).href,
    rate,
    durationMs,
    workspaces: workspaces(workspaceCount),
    secret: SIGNING_SECRET,
    runId,
    channels,
    timeoutMs: 10_000,
  });
  // Every workspace's shards started, then the heap they start from.
  await load.run(job("warm", 5_000));
  const start = await heapAfterCollection();
  const loadStartedAt = Date.now();
  const elapsedS = () => Math.round((Date.now() - loadStartedAt) / 1000);
  samples.push({
    minute: 0,
    elapsedS: 0,
    heapAfterGcMiB: MiB(start.used),
    heapTotalMiB: MiB(start.total),
    peakUsedMiB: MiB(start.used),
    acks: 0,
    non2xx: 0,
    p99Ms: 0,
    webApiCalls: 0,
  });
  console.log(
    `soak: ${rate}/s over ${workspaceCount} workspaces, ${channels} new channels a minute, pacing ${pacing ? "on" : "off"}, ` +
      `${minutes} min; JS heap at start ${MiB(start.used)} MiB`,
  );
  fake.clear();
  for (let minute = 1; minute <= minutes; minute++) {
    let peak = 0;
    const poll = setInterval(() => void profiler.heapUsage().then((heap) => (peak = Math.max(peak, heap.usedSize))), POLL_MS);
    // A fixed-width run id: channel `CM003` + `12` is never another minute's channel.
    const { samples: acks } = await load.run(job(`M${String(minute).padStart(3, "0")}`, 60_000));
    clearInterval(poll);
    const heap = await heapAfterCollection();
    const latencies = acks.map((s) => s.settledAt - s.scheduledAt).sort((a, b) => a - b);
    const sample: Sample = {
      minute,
      elapsedS: elapsedS(),
      heapAfterGcMiB: MiB(heap.used),
      heapTotalMiB: MiB(heap.total),
      peakUsedMiB: MiB(Math.max(peak, heap.used)),
      acks: acks.length,
      non2xx: acks.filter((s) => s.status < 200 || s.status >= 300).length,
      p99Ms: Math.round((latencies[Math.floor(latencies.length * 0.99)] ?? 0) * 10) / 10,
      webApiCalls: fake.calls.length,
    };
    // The harness keeps no calls across minutes: its own memory stays flat too.
    fake.clear();
    samples.push(sample);
    save();
    console.log(
      `minute ${minute}/${minutes} (+${sample.elapsedS} s): ${sample.acks} acks (${sample.non2xx} non-2xx), p99 ${sample.p99Ms} ms, ` +
        `${sample.webApiCalls} Web API calls; JS heap after GC ${sample.heapAfterGcMiB} MiB (peak ${sample.peakUsedMiB} MiB, total ${sample.heapTotalMiB} MiB)`,
    );
  }
  const at = (minute: number) => samples.find((s) => s.minute === minute)?.heapAfterGcMiB;
  const end = samples.at(-1)!;
  console.log(
    `JS heap after GC: start ${at(0)} MiB` +
      (minutes >= 10 ? `, after 10 min ${at(10)} MiB` : "") +
      `, after ${end.minute} min ${end.heapAfterGcMiB} MiB; max ${Math.max(...samples.map((s) => s.heapAfterGcMiB))} MiB. Written to bench/soak-results.json`,
  );
  if (subject.logs.errors > 0)
    console.log(`runtime errors logged: ${subject.logs.errors}; first: ${subject.logs.firstErrors[0]}`);
} finally {
  save();
  profiler.close();
  await subject.runtime.stop();
  load.close();
  await fake.close();
}
