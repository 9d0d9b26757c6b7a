import { readdirSync, readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s. */
const TICKS_PER_SECOND = 100;

function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may contain spaces; fields after it are space-separated.
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Every live process whose parent chain leads to `root` (Linux only; empty elsewhere). */
export function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const parentOf = new Map<number, number>();
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const fields = stat(pid);
    if (fields) parentOf.set(pid, Number(fields[1]));
  }
  const found: number[] = [];
  for (const pid of parentOf.keys()) {
    for (let at = parentOf.get(pid); at !== undefined && at > 1; at = parentOf.get(at)) {
      if (at === root) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

/** User + system CPU milliseconds a process has used so far; 0 when it cannot be read (e.g. it has exited). */
export function cpuMsOf(pid: number): number {
  const fields = stat(pid);
  if (!fields) return 0;
  // After the command name: utime and stime are the 12th and 13th fields.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The process's arguments, NUL-separated in /proc; empty when it cannot be read. */
export function argumentsOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}
