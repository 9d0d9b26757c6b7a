// `npx slack-durable-coordinator init [dir]` (bin/coordinator-cli.mjs): writes a new Worker
// project built on this package (the starter: examples/consumer of the repository, shipped as
// dist/starter/) into `dir` (default `my-slack-worker`), its dependency on this package set to
// the installed version. Refuses a `dir` that exists and is not empty, so nothing of a user's is
// overwritten.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const USAGE = `usage: slack-durable-coordinator init [dir]

  init [dir]   write a new Worker project built on slack-durable-coordinator into dir
               (default: my-slack-worker): an app, wrangler.toml, tsconfig.json, .dev.vars.example,
               vitest.config.ts and a test. Then: cd dir && npm install && npm test`;

const here = dirname(fileURLToPath(import.meta.url));

function fail(message, code) {
  console.error(`slack-durable-coordinator: ${message}`);
  process.exit(code);
}

/** `init [dir]`: `args` are what follows `init` on the command line. */
export function initProject(args) {
  const [target = "my-slack-worker", ...extra] = args;
  if (target === "--help" || target === "-h") return console.log(USAGE);
  if (extra.length > 0 || target.startsWith("-")) fail(`unknown arguments: init ${args.join(" ")}\n\n${USAGE}`, 2);
  const own = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
  const starter = join(here, "../dist/starter");
  if (!existsSync(starter)) fail("dist/starter is missing (in a checkout of the repository, run `npm run build` first)", 1);
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) fail(`${dir} exists and is not empty: nothing was written`, 1);
  cpSync(starter, dir, { recursive: true });
  const projectFile = join(dir, "package.json");
  const project = JSON.parse(readFileSync(projectFile, "utf8"));
  const base = target.split(/[\\/]/).filter(Boolean).pop() ?? "my-slack-worker";
  project.name = base.toLowerCase().replace(/[^a-z0-9._-]/g, "-");
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
}
