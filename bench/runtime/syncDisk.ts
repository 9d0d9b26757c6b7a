import { spawn } from "node:child_process";

/**
 * Asks the kernel to write every dirty page to disk (`sync`, bounded by `maxMs`) and resolves when it
 * has: a scenario that has just written gigabytes (the backlog's seed) must not leave their writeback
 * to slow the commits it then measures. Returns the seconds it took.
 */
export function syncDisk(maxMs = 180_000): Promise<number> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn("sync", [], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), maxMs);
    const finish = () => {
      clearTimeout(timer);
      done(Math.round((Date.now() - started) / 100) / 10);
    };
    child.once("exit", finish);
    child.once("error", finish);
  });
}
