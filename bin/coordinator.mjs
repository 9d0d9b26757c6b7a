#!/usr/bin/env node
// `npx slack-durable-coordinator init [dir]`: writes a new Worker project built on this package
// (the starter: examples/consumer of the repository, shipped as dist/starter/) into `dir`
// (default `my-slack-worker`), its dependency on this package set to the installed version.
// Refuses a `dir` that exists and is not empty, so nothing of a user's is overwritten.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const USAGE = `usage: slack-durable-coordinator init [dir]

  init [dir]   write a new Worker project built on slack-durable-coordinator into dir
               (default: my-slack-worker): an app, wrangler.toml, tsconfig.json, .dev.vars.example,
               vitest.config.ts and a test. Then: cd dir && npm install && npm test`;

const here = dirname(fileURLToPath(import.meta.url));
const own = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
const [command, target = "my-slack-worker", ...extra] = process.argv.slice(2);

if (command === "--help" || command === "-h" || command === "help") {
  console.log(USAGE);
  process.exit(0);
}
if (command !== "init" || extra.length > 0 || target.startsWith("-")) {
  console.error(
    `slack-durable-coordinator: ${command ? `unknown arguments: ${process.argv.slice(2).join(" ")}` : "no command"}\n\n${USAGE}`,
  );
  process.exit(2);
}

const starter = join(here, "../dist/starter");
if (!existsSync(starter)) {
  console.error(
    "slack-durable-coordinator: dist/starter is missing (in a checkout of the repository, run `npm run build` first)",
  );
  process.exit(1);
}
const dir = resolve(target);
if (existsSync(dir) && readdirSync(dir).length > 0) {
  console.error(`slack-durable-coordinator: ${dir} exists and is not empty: nothing was written`);
  process.exit(1);
}
cpSync(starter, dir, { recursive: true });
const projectFile = join(dir, "package.json");
const project = JSON.parse(readFileSync(projectFile, "utf8"));
project.name = target
  .split(/[\\/]/)
  .filter(Boolean)
  .pop()
  .toLowerCase()
  .replace(/[^a-z0-9._-]/g, "-");
project.dependencies = { ...project.dependencies, [own.name]: `^${own.version}` };
writeFileSync(projectFile, `${JSON.stringify(project, null, 2)}\n`);
console.log(`wrote ${dir} (${own.name} ^${own.version}). Next:

  cd ${target}
  npm install                  # on Node 20 or 22: the node@22 dev dependency runs its scripts on Node 22
  npm test                     # its test, in workerd, against the package's fake Slack
  cp .dev.vars.example .dev.vars
  npm run fake-slack           # in one terminal: a fake Slack on 127.0.0.1:8788
  npm start                    # in another: the Worker on 127.0.0.1:8787

The guide: "Use it in your own Worker" (docs/guides/own-worker.md), linked from ${own.name}'s README.`);
