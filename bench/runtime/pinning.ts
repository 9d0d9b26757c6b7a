import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { argumentsOf, descendantsOf } from "./processCpu";

/** The cores `npm run capacity` pins to: the subject's runtime on one, everything measuring it on another. */
export interface Cores {
  runtime: number;
  load: number;
}

/** Refuses, with what is missing, a machine the pinned measurement cannot be fair on. */
export function checkPinnable(cores: Cores): void {
  const count = cpus().length;
  if (count < 2)
    throw new Error(`npm run capacity pins the runtime and the load to two different cores; this machine has ${count}`);
  for (const core of [cores.runtime, cores.load])
    if (!Number.isInteger(core) || core < 0 || core >= count)
      throw new Error(`core ${core} does not exist here (0–${count - 1})`);
  if (cores.runtime === cores.load) throw new Error("--runtime-core and --load-core must differ");
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
  } catch {
    throw new Error("taskset (util-linux) is needed to pin processes to cores: apt-get install util-linux");
  }
}

/** Pins `pid` and all its threads to `core`. */
function pin(pid: number, core: number): void {
  execFileSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
}

/** The core list a process may run on, as taskset prints it (e.g. "0"), for the record. */
export function affinityOf(pid: number): string {
  return /list: (.+)$/m.exec(execFileSync("taskset", ["-p", "-c", String(pid)], { encoding: "utf8" }))?.[1]?.trim() ?? "?";
}

/**
 * Pins every workerd below this process to `cores.runtime`, and this process and every other
 * process below it (the load generator, the fake Slack, Miniflare's Node side) to `cores.load`.
 * Called after each subject starts: its workerd is new. Returns the runtime's pids.
 */
export function pinAll(cores: Cores): { runtime: number[]; load: number[] } {
  const below = descendantsOf(process.pid);
  const isRuntime = (pid: number) => argumentsOf(pid).some((arg) => /(^|\/)workerd$/.test(arg));
  const runtime = below.filter(isRuntime);
  const load = [process.pid, ...below.filter((pid) => !isRuntime(pid))];
  if (runtime.length === 0) throw new Error("no workerd process found below the bench: nothing to pin");
  for (const pid of runtime) pin(pid, cores.runtime);
  for (const pid of load) pin(pid, cores.load);
  return { runtime, load };
}
