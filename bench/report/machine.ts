import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { repoRoot } from "../runtime/repoRoot";

function versionOf(pkg: string): string | null {
  try {
    return (JSON.parse(readFileSync(resolve(repoRoot, "node_modules", pkg, "package.json"), "utf8")) as { version: string })
      .version;
  } catch {
    return null;
  }
}

/** Where the numbers came from: enough to tell whether another run is comparable. */
export function describeMachine() {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    workerd: versionOf("workerd"),
    miniflare: versionOf("miniflare"),
    slackEdge: versionOf("slack-edge"),
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}
