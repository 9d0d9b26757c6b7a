import { readFileSync } from "node:fs";

/**
 * The settings `npm start` gives the demo: the uncommented `NAME=value` lines of .dev.vars.example,
 * which scripts/ensure-dev-vars.mjs copies to .dev.vars. Read in Node (vitest.config.ts), never in workerd.
 */
export function devVarsExample(path = new URL("../../.dev.vars.example", import.meta.url)): Record<string, string> {
  const lines = readFileSync(path, "utf8").split("\n");
  const settings = lines.flatMap((line) => {
    const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    return set ? [[set[1]!, set[2]!] as const] : [];
  });
  return Object.fromEntries(settings);
}
