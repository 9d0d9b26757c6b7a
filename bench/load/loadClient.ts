import { type ChildProcess, fork } from "node:child_process";
import { resolve } from "node:path";
import type { LoadJob, LoadMessage, LoadResult } from "./loadJob";
import type { OpenLoopProgress } from "./openLoop";

/** Drives the load process (bench/load/loadProcess.ts, bundled next to this harness). */
export class LoadClient {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly pending = new Map<number, (error: Error) => void>();

  constructor() {
    this.child = fork(resolve(import.meta.dirname, "loadProcess.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.once("exit", (code) => {
      for (const fail of this.pending.values()) fail(new Error(`load process exited (${code})`));
    });
  }

  run(job: LoadJob, onProgress?: (progress: OpenLoopProgress) => void): Promise<LoadResult> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      // One listener per job: jobs may overlap (npm run spread hands the next over while one runs).
      const listener = (message: LoadMessage) => {
        if (message.id !== id) return;
        if (message.kind === "progress") return onProgress?.(message.progress);
        this.child.off("message", listener);
        this.pending.delete(id);
        if (message.kind === "done") resolve(message.result);
        else reject(new Error(`load process failed: ${message.error}`));
      };
      this.pending.set(id, reject);
      this.child.setMaxListeners(Math.max(10, this.pending.size + 2));
      this.child.on("message", listener);
      this.child.send({ id, job });
    });
  }

  close(): void {
    this.child.kill();
  }
}
