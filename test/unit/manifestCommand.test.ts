import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEMO_MANIFEST, DEMO_URL } from "../support/demoManifest";

// The package's command (bin/coordinator-cli.mjs), run as a user runs it in this repository: the
// demo Worker under `wrangler dev` on a free 127.0.0.1 port with .dev.vars.example's settings,
// asked for its manifest, then stopped. Bounded: the command's own timeout and the test's.

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (...args: string[]) =>
  promisify(execFile)("node", ["bin/coordinator-cli.mjs", ...args], { cwd: root, timeout: 110_000 });
const LOCAL = ["--", "--env-file", ".dev.vars.example"];

describe("npx slack-durable-coordinator", () => {
  it("manifest --url prints the demo's manifest, read from its Worker run locally", { timeout: 120_000 }, async () => {
    const { stdout } = await run("manifest", "--url", DEMO_URL, "--timeout-ms", "100000", ...LOCAL);
    expect(JSON.parse(stdout)).toEqual(DEMO_MANIFEST);
  });

  it("get-manifest answers between the Slack CLI's message boundaries", { timeout: 120_000 }, async () => {
    const args = ["--protocol=message-boundaries", "--boundary=b0undary", "--url", DEMO_URL, ...LOCAL];
    const { stdout } = await run("get-manifest", ...args);
    const answer = /b0undary(.*)b0undary/s.exec(stdout);
    expect(JSON.parse(answer![1]!)).toEqual(DEMO_MANIFEST);
  });

  it("get-hooks names this package's hooks for slack.json", async () => {
    const { stdout } = await run("get-hooks");
    const hook = "npx -q --no-install -p slack-durable-coordinator slack-durable-coordinator";
    expect(JSON.parse(stdout)).toEqual({
      hooks: { "get-manifest": `${hook} get-manifest`, start: `${hook} start` },
      config: {
        watch: { app: { "filter-regex": "\\.(ts|js)$", paths: ["src"] } },
        "protocol-version": ["message-boundaries"],
        "sdk-managed-connection-enabled": true,
      },
      runtime: "node",
    });
  });

  it("manifest without a URL says what it needs, exit code 1", async () => {
    await expect(run("manifest")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("--url is required") });
  });
});
