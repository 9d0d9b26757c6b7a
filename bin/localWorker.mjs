// The app's own Worker, run locally by `wrangler dev` on a free 127.0.0.1 port for as long as one
// request takes: the `manifest` command's way to read what only the Worker knows (a user's app
// imports `cloudflare:workers`, which plain Node cannot load). Its state goes to a temporary
// folder, removed with it; its ADMIN_TOKEN is a fresh random one, given with `--var`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A port the OS says is free on 127.0.0.1 now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * GETs `path` (with the admin bearer) from the Worker that `wrangler dev` serves with `wranglerArgs`
 * (`-c`, `--env`, …), and stops it. Answers the response's status and text; throws when the Worker
 * does not answer within `timeoutMs`, with what wrangler printed.
 */
export async function askLocalWorker(path, { wranglerArgs = [], timeoutMs = 90_000, cwd = process.cwd() } = {}) {
  const port = await freePort();
  const token = randomBytes(24).toString("hex");
  const state = mkdtempSync(join(tmpdir(), "coordinator-manifest-"));
  const args = ["--no-install", "wrangler", "dev", ...wranglerArgs, "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--var", `ADMIN_TOKEN:${token}`, "--persist-to", state, "--show-interactive-dev-session=false");
  // Its own process group, so stopping it stops workerd too.
  const child = spawn("npx", args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  let output = "";
  let exited = null;
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  child.once("exit", (code) => (exited = code ?? "signal"));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline && exited === null) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(5_000),
        });
        return { status: response.status, text: await response.text() };
      } catch {
        await pause(300);
      }
    }
    const why = exited === null ? `did not answer within ${timeoutMs / 1000} s` : `exited (${exited})`;
    throw new Error(`wrangler dev ${why}:\n${output.trim()}`);
  } finally {
    stop();
  }
}
