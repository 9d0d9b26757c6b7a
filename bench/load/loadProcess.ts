import type { LoadJob, LoadMessage } from "./loadJob";
import { prepareMentions } from "./mentions";
import { runOpenLoop } from "./openLoop";

// The load generator, in its own process so its CPU is not the runtime's (see loadClient.ts).
function reply(message: LoadMessage): void {
  process.send!(message);
}

process.on("message", (message: { id: number; job: LoadJob }) => {
  const { id, job } = message;
  void (async () => {
    try {
      const events = await prepareMentions({
        count: Math.round((job.rate * job.durationMs) / 1000),
        workspaces: job.workspaces,
        secret: job.secret,
        runId: job.runId,
        channels: job.channels,
      });
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      const samples = await runOpenLoop({
        url: job.url,
        events,
        rate: job.rate,
        timeoutMs: job.timeoutMs,
        startAt: job.startAt,
        onProgress: (progress) => reply({ id, kind: "progress", progress }),
      });
      const cpu = process.cpuUsage(cpuBefore);
      const generatorCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore);
      reply({ id, kind: "done", result: { samples, generatorCpu } });
    } catch (error) {
      reply({ id, kind: "failed", error: String(error) });
    }
  })();
});

// Never outlive the harness that forked us.
process.on("disconnect", () => process.exit(0));
