import type { LoadClient } from "../load/loadClient";
import type { LoadJob } from "../load/loadJob";
import type { Sample } from "../load/openLoop";

/**
 * One open-loop load for minutes (npm run spread): back-to-back runs of `chunkMs`, each due right
 * where the one before ends (LoadJob.startAt) and handed to the load process one chunk ahead,
 * so its events are signed while the previous chunk is sent — a long run keeps only a chunk of
 * signed events in memory, and none is older than Slack's five-minute signature window allows.
 */
export async function steadyLoad(
  load: LoadClient,
  job: Omit<LoadJob, "durationMs" | "startAt" | "runId"> & {
    runId: string;
    durationMs: number;
    chunkMs: number;
    startAt: number;
  },
  onChunk?: (index: number, samples: readonly Sample[]) => void,
): Promise<Sample[]> {
  const count = Math.ceil(job.durationMs / job.chunkMs);
  const runs: Array<Promise<Sample[]>> = [];
  for (let index = 0; index < count; index++) {
    const startAt = job.startAt + index * job.chunkMs;
    const durationMs = Math.min(job.chunkMs, job.durationMs - index * job.chunkMs);
    // Handed over a chunk ahead: the load process signs it while it sends the one before.
    const handOver = startAt - job.chunkMs - Date.now();
    if (handOver > 0) await new Promise((done) => setTimeout(done, handOver));
    const { chunkMs: _, ...base } = job;
    runs.push(
      load.run({ ...base, runId: job.runId, startAt, durationMs }).then(({ samples }) => {
        onChunk?.(index, samples);
        return samples;
      }),
    );
  }
  return (await Promise.all(runs)).flat();
}
