import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import type { RuntimeOptions } from "../runtime/startRuntime";

/** Lines the coordinator logged that explain a duplicate or a loss, by outbox key. */
export interface Notable {
  at: number;
  msg: string;
  key?: string;
  reason?: string;
}

/** Log messages (prefixes) kept for the verdict: retries, fenced settles, parking and failures. */
const NOTABLE = [
  "effect will be retried",
  "fence rejected",
  "effect parked",
  "delivery failed",
  "alarm failed",
  "a stream's interrupted start was not found",
  "an uncertain post's lookup could not be made",
  "an uncertain post was not found in the pages read",
];

/**
 * The coordinator under chaos: bench/runtime/runtimeProcess.ts started detached (its own process
 * group, so SIGKILL takes workerd with it) and restarted on the same persisted state.
 */
export class CoordinatorProcess {
  private child: ChildProcess | undefined;
  private readonly log: WriteStream;
  readonly notable: Notable[] = [];
  /** Incarnations started so far. */
  starts = 0;

  constructor(
    private readonly options: Omit<RuntimeOptions, "onLog">,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: "a" });
  }

  /** Starts the runtime and resolves once it serves, or rejects after `timeoutMs`. */
  async start(timeoutMs = 60_000): Promise<void> {
    this.starts++;
    const child = spawn(process.execPath, [resolve(import.meta.dirname, "runtimeProcess.mjs")], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, RUNTIME_OPTIONS: JSON.stringify(this.options) },
    });
    this.child = child;
    const incarnation = this.starts;
    child.stderr!.on("data", (chunk: Buffer) => this.log.write(`[${incarnation}] stderr ${chunk}`));
    await new Promise<void>((ready, failed) => {
      const timer = setTimeout(() => failed(new Error(`runtime not ready within ${timeoutMs} ms`)), timeoutMs);
      child.once("exit", (code) => failed(new Error(`runtime exited (${code}) before it was ready`)));
      createInterface({ input: child.stdout! }).on("line", (line) => {
        this.log.write(`[${incarnation}] ${line}\n`);
        if (line.startsWith("READY ")) {
          clearTimeout(timer);
          ready();
        } else if (line.startsWith("LOG ")) this.noteLine(line);
      });
    });
  }

  /** SIGKILLs the whole process group (node and workerd) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((gone) => child.once("exit", () => gone()));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    // workerd is in the group too; give the kernel a moment to release its listening socket.
    await new Promise((done) => setTimeout(done, 100));
  }

  /** Asks the runtime to shut down cleanly (Miniflare disposes workerd); kills it after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((gone) => child.once("exit", () => gone()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => void this.kill(), graceMs);
    await exited;
    clearTimeout(timer);
    this.log.end();
  }

  private noteLine(line: string): void {
    const json = line.slice(line.indexOf("{"));
    try {
      const entry = JSON.parse(json) as { msg?: string; key?: string; reason?: string };
      if (entry.msg && NOTABLE.some((prefix) => entry.msg!.startsWith(prefix)))
        this.notable.push({ at: Date.now(), msg: entry.msg, key: entry.key, reason: entry.reason });
    } catch {
      // Not one of the coordinator's JSON lines.
    }
  }
}
