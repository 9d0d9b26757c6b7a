import { startFakeSlackServer } from "./fakeSlack/fakeSlackServer";
import { highResNow } from "./load/clock";
import { LoadClient } from "./load/loadClient";
import { workspaces } from "./plan";
import { type CpuProfile, Profiler } from "./profile/cpuProfile";
import { killDescendantsOnExit, watchdog } from "./runtime/cleanup";
import { positiveArgument } from "./runtime/cliArguments";
import { SIGNING_SECRET, startSubject, subjectArgument, workerOf } from "./subjects";

// `npm run stalls [-- --rate 100 --seconds 10 --runs 3]`: finds the moments the coordinator's
// acks stall under a light load, and says whether its workerd was busy on the CPU then (work on
// the thread) or idle (waiting on something, such as a disk flush). Samples the runtime's CPU
// every 10 ms beside an open-loop run. Loopback only, bounded, stops by itself.
const rate = positiveArgument("rate", 100);
const seconds = positiveArgument("seconds", 10);
const runs = positiveArgument("runs", 3);
/** With --profile, a V8 CPU profile of each run shows what the thread ran during each stall. */
const profiling = process.argv.includes("--profile");
const INSPECTOR_PORT = 9340;
/** An ack slower than this is part of a stall. */
const STALL_MS = 40;
killDescendantsOnExit();
watchdog(runs * (seconds * 1000 + 60_000) + 60_000, "npm run stalls");

const fake = await startFakeSlackServer();
const load = new LoadClient();
/** `--subject slack-edge-same-work` looks at the reference instead. */
const name = subjectArgument();
const subject = await startSubject({
  name,
  apiUrl: fake.fake.apiUrl,
  stateDir: "stalls",
  inspectorPort: profiling ? INSPECTOR_PORT : undefined,
});
const profiler = profiling ? await Profiler.connect(INSPECTOR_PORT, workerOf(name)) : undefined;

/** The functions the profile sampled between two wall-clock times (its clock aligned at `startedAt`). */
function sampledBetween(profile: CpuProfile, startedAt: number, from: number, to: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  let at = startedAt;
  profile.samples.forEach((id, i) => {
    at += (profile.timeDeltas[i] ?? 0) / 1000;
    if (at < from || at > to) return;
    const frame = byId.get(id)?.callFrame;
    const name = frame ? `${frame.functionName || "(anonymous)"}${frame.url ? `:${frame.lineNumber}` : ""}` : "?";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  });
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, n]) => `${name} ×${n}`)
    .join(", ");
}
try {
  const url = new URL("/slack/events", subject.runtime.url).href;
  const job = (runId: string, durationMs: number) => ({
    url,
    rate,
    durationMs,
    workspaces: workspaces(1),
    secret: SIGNING_SECRET,
    runId,
    timeoutMs: 10_000,
  });
  await load.run(job("warm", 2000));
  if (process.argv.includes("--heap")) await profiler?.startHeapSampling();
  for (let run = 1; run <= runs; run++) {
    const cpu: Array<{ at: number; ms: number }> = [];
    await profiler?.start(500);
    const profiledAt = highResNow();
    const sampler = setInterval(() => cpu.push({ at: highResNow(), ms: subject.cpuMs() }), 10);
    const { samples } = await load.run(job(`S${run}`, seconds * 1000));
    clearInterval(sampler);
    const profile = await profiler?.stop();
    const slow = samples.filter((s) => s.settledAt - s.scheduledAt > STALL_MS).sort((a, b) => a.scheduledAt - b.scheduledAt);
    const start = samples[0]?.scheduledAt ?? 0;
    const latencies = samples.map((s) => s.settledAt - s.scheduledAt).sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    const heap = await profiler?.heapUsage();
    const heapText = heap
      ? `, JS heap ${(heap.usedSize / 2 ** 20).toFixed(1)} of ${(heap.totalSize / 2 ** 20).toFixed(1)} MiB`
      : "";
    console.log(`run ${run}: ${samples.length} acks, p99 ${p99.toFixed(1)} ms, ${slow.length} over ${STALL_MS} ms${heapText}`);
    if (process.argv.includes("--heap") && run === 2)
      for (const { bytes, where } of (await profiler?.heapSampledBy(15)) ?? [])
        console.log(`    ${(bytes / 2 ** 20).toFixed(2).padStart(6)} MiB  ${where.slice(0, 160)}`);
    // Stalls: slow acks whose waits overlap, merged into windows.
    const windows: Array<{ from: number; to: number; acks: number }> = [];
    for (const s of slow) {
      const last = windows.at(-1);
      if (last && s.scheduledAt <= last.to) {
        last.to = Math.max(last.to, s.settledAt);
        last.acks++;
      } else windows.push({ from: s.scheduledAt, to: s.settledAt, acks: 1 });
    }
    for (const w of windows) {
      const inside = cpu.filter((c) => c.at >= w.from && c.at <= w.to);
      const used = inside.length > 1 ? (inside.at(-1)?.ms ?? 0) - (inside[0]?.ms ?? 0) : Number.NaN;
      const span = inside.length > 1 ? (inside.at(-1)?.at ?? 0) - (inside[0]?.at ?? 0) : Number.NaN;
      console.log(
        `  stall at +${((w.from - start) / 1000).toFixed(2)} s for ${(w.to - w.from).toFixed(0)} ms (${w.acks} acks): ` +
          `workerd used ${used.toFixed(0)} ms of CPU in ${span.toFixed(0)} ms (${((used / span) * 100).toFixed(0)} % of a core)`,
      );
      if (profile) console.log(`    sampled: ${sampledBetween(profile, profiledAt, w.from, w.to)}`);
    }
  }
} finally {
  profiler?.close();
  await subject.runtime.stop();
  load.close();
  await fake.close();
}
