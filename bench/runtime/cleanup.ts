import { descendantsOf } from "./processCpu";

/**
 * Makes sure nothing this harness started outlives it: on exit (normal, error, Ctrl-C or the
 * watchdog), every descendant process (workerd, the load process) is killed by PID.
 */
export function killDescendantsOnExit(): void {
  const killAll = () => {
    for (const pid of descendantsOf(process.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping`);
      process.exit(130);
    });
  }
}

/** Ends the run (exit 1, descendants killed) if it has not finished within `ms`. */
export function watchdog(ms: number, what: string): void {
  setTimeout(() => {
    console.error(`${what} did not finish within ${Math.round(ms / 1000)} s; stopping.`);
    process.exit(1);
  }, ms).unref();
}
