#!/usr/bin/env node
// `npx slack-durable-coordinator <command>` (docs/reference/scripts.md, docs/guides/manifest.md):
//   manifest --url https://… [--name N] [--out FILE] [--timeout-ms N] [-- wrangler dev flags]
//       prints the Slack app manifest the app's registrations need, read from the app's Worker
//       run locally (GET /admin/manifest), in the mode its settings give it;
//   get-hooks | get-manifest | start — the Slack CLI's hooks (slack.json), as @slack/cli-hooks has them;
//   init [dir] — writes a new Worker project built on the package (its starter: bin/initProject.mjs).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { initProject } from "./initProject.mjs";
import { askLocalWorker } from "./localWorker.mjs";

const [command, ...rest] = process.argv.slice(2);
const dashes = rest.indexOf("--");
const own = dashes < 0 ? rest : rest.slice(0, dashes);
const wranglerArgs = dashes < 0 ? [] : rest.slice(dashes + 1);

/** `--name value` and `--name=value` flags. */
function flag(name) {
  const i = own.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return own[i].includes("=") ? own[i].slice(name.length + 3) : own[i + 1];
}

const HOOK = "npx -q --no-install -p slack-durable-coordinator slack-durable-coordinator";

/** The get-hooks answer: the hooks this package serves, and how the Slack CLI talks to them. */
export function hooks() {
  return {
    hooks: { "get-manifest": `${HOOK} get-manifest`, start: `${HOOK} start` },
    config: {
      watch: { app: { "filter-regex": "\\.(ts|js)$", paths: ["src"] } },
      "protocol-version": ["message-boundaries"],
      // The Worker serves Slack over HTTP itself: the CLI must not open a Socket Mode connection for it.
      "sdk-managed-connection-enabled": true,
    },
    runtime: "node",
  };
}

/** The manifest as the Worker answers it; exits 1 with the reason when it cannot. */
async function manifest(url) {
  if (!url) fail("--url is required (or SLACK_APP_URL): the Worker's public origin, e.g. https://coordinator.example.com");
  const query = new URLSearchParams({ url, ...(flag("name") ? { name: flag("name") } : {}) });
  const timeoutMs = Number(flag("timeout-ms") ?? 90_000);
  const answer = await askLocalWorker(`/admin/manifest?${query}`, { wranglerArgs, timeoutMs }).catch((error) =>
    fail(error.message),
  );
  if (answer.status !== 200) fail(`GET /admin/manifest answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text);
}

function fail(message) {
  console.error(`slack-durable-coordinator: ${message}`);
  process.exit(1);
}

switch (command) {
  case "init":
    initProject(rest);
    break;
  case "manifest": {
    const json = `${JSON.stringify(await manifest(flag("url") ?? process.env.SLACK_APP_URL), null, 2)}\n`;
    if (flag("out")) writeFileSync(flag("out"), json);
    else process.stdout.write(json);
    break;
  }
  case "get-hooks":
    console.log(JSON.stringify(hooks()));
    break;
  case "get-manifest": {
    // The CLI asks with --protocol=message-boundaries --boundary=X: the answer between two boundaries, logs free around it.
    const boundary = flag("protocol") === "message-boundaries" ? (flag("boundary") ?? "") : "";
    const json = JSON.stringify(await manifest(flag("url") ?? process.env.SLACK_APP_URL));
    console.log(`${boundary}${json}${boundary}`);
    break;
  }
  case "start": {
    // `slack run`: the app's Worker under `wrangler dev`, as `npm start` runs it; Slack reaches it through your tunnel.
    const child = spawn("npx", ["--no-install", "wrangler", "dev", ...wranglerArgs], { stdio: "inherit" });
    child.on("exit", (code) => process.exit(code ?? 1));
    break;
  }
  default:
    fail(`unknown command "${command ?? ""}": init, manifest, get-hooks, get-manifest or start`);
}
