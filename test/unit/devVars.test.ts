import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// `npm start` runs scripts/ensure-dev-vars.mjs in the project's folder before the local Worker.
const script = new URL("../../scripts/ensure-dev-vars.mjs", import.meta.url).pathname;
const example = new URL("../../.dev.vars.example", import.meta.url).pathname;

/** A project folder holding .dev.vars.example and, when given, a .dev.vars; the script run in it; .dev.vars after. */
function devVarsAfterStart(existing?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "dev-vars-"));
  copyFileSync(example, join(dir, ".dev.vars.example"));
  if (existing !== undefined) writeFileSync(join(dir, ".dev.vars"), existing);
  execFileSync(process.execPath, [script], { cwd: dir, stdio: "pipe" });
  return readFileSync(join(dir, ".dev.vars"), "utf8");
}

const agentSessions = (vars: string) => vars.match(/^AGENT_SESSIONS=.*$/gm);

describe("npm start's .dev.vars: the demo is an agent session by default", () => {
  it("a fresh clone's .dev.vars turns agent sessions on, once", () => {
    expect(agentSessions(devVarsAfterStart())).toEqual(["AGENT_SESSIONS=true"]);
  });

  it("a .dev.vars from before the default (the setting commented out) gets it", () => {
    const old = "SLACK_SIGNING_SECRET=dev-signing-secret\n# AGENT_SESSIONS=true\n";
    expect(agentSessions(devVarsAfterStart(old))).toEqual(["AGENT_SESSIONS=true"]);
  });

  it("an app on the assistant view that turned it off keeps it off", () => {
    const off = "SLACK_SIGNING_SECRET=dev-signing-secret\nAGENT_SESSIONS=false\n";
    expect(agentSessions(devVarsAfterStart(off))).toEqual(["AGENT_SESSIONS=false"]);
  });
});
