import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// The Slack CLI's `start` hook of the package's command (bin/coordinator-cli.mjs): `slack run` runs
// it to serve the app locally — the app's Worker under `wrangler dev`, the flags after `--` its own.
// Smoke-tested without network: wrangler dev on a free 127.0.0.1 port, its state in a temporary
// folder, `Request.cf` not fetched; asked GET /healthz, then stopped. Each command is started in its
// own process group (npx, wrangler and workerd are its children) and that group, by the started
// process's id, is stopped after every test; every wait is bounded.

const root = fileURLToPath(new URL("../..", import.meta.url));
const CLI = "bin/coordinator-cli.mjs";
/** No telemetry, no `Request.cf` fetched from workers.cloudflare.com: nothing leaves the machine. */
const OFFLINE = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port the OS says is free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** GET /healthz's status, or undefined when nothing answers within 2 s (node:http: the tests' fetch is guarded). */
function healthz(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = get({ host: "127.0.0.1", port, path: "/healthz", timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.once("timeout", () => request.destroy());
    request.once("error", () => resolve(undefined));
  });
}

/** Whether any process of the group `pgid` is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const started: ChildProcess[] = [];

/** `node bin/coordinator-cli.mjs start …args`, in its own process group; its output and exit kept. */
function start(args: string[]) {
  const child = spawn("node", [CLI, "start", ...args], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...OFFLINE },
  });
  started.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return { child, exited, output: () => output };
}

/** Stops the group of the process this test started (by its id): SIGTERM, then SIGKILL after 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (!groupAlive(pgid)) return;
    process.kill(-pgid, signal);
    for (let waited = 0; waited < 10_000 && groupAlive(pgid); waited += 100) await pause(100);
  }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map(stop));
});

describe("the Slack CLI's start hook", () => {
  it("get-hooks names it as @slack/cli-hooks names its own: npx -q --no-install -p <package> <bin> start", async () => {
    const { stdout } = await promisify(execFile)("node", [CLI, "get-hooks"], { cwd: root, timeout: 20_000 });
    const hook: string = JSON.parse(stdout).hooks.start;
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const [npx, quiet, noInstall, p, name, bin, ...args] = hook.split(" ");
    expect([npx, quiet, noInstall, p, name]).toEqual(["npx", "-q", "--no-install", "-p", pkg.name]);
    // The package's bin is this command, shipped with what it imports; its `start` is the hook.
    expect(pkg.bin[bin!]).toBe(CLI);
    expect(pkg.files).toEqual(expect.arrayContaining([CLI, "bin/localWorker.mjs", "bin/initProject.mjs"]));
    expect(args).toEqual(["start"]);
  });

  it("start serves the app's Worker under wrangler dev with the flags after --, until stopped", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const state = mkdtempSync(join(tmpdir(), "coordinator-start-"));
    try {
      const wrangler = ["--env-file", ".dev.vars.example", "--ip", "127.0.0.1", "--port", String(port)];
      const hook = start(["--", ...wrangler, "--persist-to", state, "--show-interactive-dev-session=false"]);
      let exited: number | string | undefined;
      void hook.exited.then((code) => (exited = code));
      let status: number | undefined;
      for (const deadline = Date.now() + 40_000; Date.now() < deadline && exited === undefined; await pause(300)) {
        status = await healthz(port);
        if (status === 200) break;
      }
      expect(status, `start exited ${exited}:\n${hook.output()}`).toBe(200);
      expect(hook.output()).toContain(`Ready on http://127.0.0.1:${port}`);
      // Stopped as the Slack CLI stops it: the whole Worker goes, nothing keeps the port.
      await stop(hook.child);
      expect(groupAlive(hook.child.pid!)).toBe(false);
      expect(await healthz(port)).toBeUndefined();
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });

  it("start ends with wrangler's exit code when the Worker cannot start", { timeout: 40_000 }, async () => {
    const hook = start(["--", "--config", "does-not-exist.toml"]);
    const code = await Promise.race([hook.exited, pause(30_000).then(() => "still running after 30 s")]);
    expect(code, hook.output()).toBe(1);
    expect(hook.output()).toContain("does-not-exist.toml");
  });
});
