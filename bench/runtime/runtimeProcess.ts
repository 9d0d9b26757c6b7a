import { type RuntimeOptions, startRuntime } from "./startRuntime";

// A runtime in its own process (and process group), so chaos can SIGKILL it — workerd included —
// and start it again on the same persisted state. Configured by the RUNTIME_OPTIONS env var
// (JSON RuntimeOptions without onLog); prints "READY <url>" once serving, then one line per log.
const options = JSON.parse(process.env.RUNTIME_OPTIONS ?? "{}") as Omit<RuntimeOptions, "onLog">;

const runtime = await startRuntime({
  ...options,
  onLog: (level, message) => process.stdout.write(`LOG ${level} ${message.replace(/\n/g, " ")}\n`),
});
process.stdout.write(`READY ${runtime.url.href}\n`);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => void runtime.stop().finally(() => process.exit(0)));
}
// Our parent is the chaos harness: if it goes, so do we.
process.stdin.on("end", () => void runtime.stop().finally(() => process.exit(0)));
process.stdin.resume();
