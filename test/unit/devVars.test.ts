import { execFileSync, spawnSync } from "node:child_process";
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

/** The script run in a project folder as devVarsAfterStart does; what it printed (stdout and stderr) and .dev.vars after. */
function startOutput(existing?: string): { printed: string; vars: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "dev-vars-"));
  copyFileSync(example, join(dir, ".dev.vars.example"));
  if (existing !== undefined) writeFileSync(join(dir, ".dev.vars"), existing);
  const run = spawnSync(process.execPath, [script], { cwd: dir, encoding: "utf8" });
  return { printed: `${run.stdout}${run.stderr}`, vars: readFileSync(join(dir, ".dev.vars"), "utf8"), dir };
}

const adminTokens = (vars: string) => vars.match(/^ADMIN_TOKEN=.*$/gm) ?? [];

describe("npm start's .dev.vars: the admin token is never the example's public one", () => {
  it("a fresh clone's .dev.vars gets a random ADMIN_TOKEN, a new one each time, and says where it is", () => {
    const first = startOutput();
    const second = startOutput();
    expect(adminTokens(first.vars)).toHaveLength(1);
    expect(adminTokens(first.vars)[0]).toMatch(/^ADMIN_TOKEN=[0-9a-f]{64}$/);
    expect(adminTokens(second.vars)[0]).not.toBe(adminTokens(first.vars)[0]);
    expect(first.vars).not.toContain("dev-admin-token-local");
    expect(first.printed).toContain(join(first.dir, ".dev.vars"));
    expect(first.printed).not.toContain("public example value");
  });

  it("an existing .dev.vars with the public token is warned about, with the fix, and left as it is", () => {
    const old = "SLACK_SIGNING_SECRET=dev-signing-secret\nADMIN_TOKEN=dev-admin-token-local\n";
    const { printed, vars } = startOutput(old);
    expect(adminTokens(vars)).toEqual(["ADMIN_TOKEN=dev-admin-token-local"]);
    expect(printed).toContain("ADMIN_TOKEN");
    expect(printed).toContain("public example value");
    expect(printed).toContain("openssl rand -hex 32");
  });

  it("a .dev.vars with the user's own token is kept and not warned about", () => {
    const own = "SLACK_SIGNING_SECRET=dev-signing-secret\nADMIN_TOKEN=my-own-long-admin-token-0123\n";
    const { printed, vars } = startOutput(own);
    expect(adminTokens(vars)).toEqual(["ADMIN_TOKEN=my-own-long-admin-token-0123"]);
    expect(printed).not.toContain("public example value");
  });
});
