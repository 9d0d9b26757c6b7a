// `npx slack-durable-coordinator init [dir]` (bin/coordinator-cli.mjs): writes a new Worker
// project built on this package (the starter: examples/consumer of the repository, shipped as
// dist/starter/) into `dir` (default `my-slack-worker`), named after its folder, its dependency on
// this package set to the running version, with a .gitignore that keeps .dev.vars (the local
// secrets), .wrangler/ and node_modules/ out of git. Refuses a `dir` holding anything but `.git`
// and `.gitignore`, so nothing of a user's is overwritten (an existing .gitignore gains the lines
// it lacks). Its next steps install the package the way the running copy came: from the registry,
// from the tarball npm installed it from, or — in a checkout of the repository — from a tarball
// `npm pack` makes: a version not on the registry yet is never asked of it.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const USAGE = `usage: slack-durable-coordinator init [dir]

  init [dir]   write a new Worker project built on slack-durable-coordinator into dir
               (default: my-slack-worker; "." for the current folder): an app, wrangler.toml,
               tsconfig.json, .dev.vars.example, vitest.config.ts, a test and a .gitignore,
               named after the folder. Then it prints how to install the package and test it.`;

const here = dirname(fileURLToPath(import.meta.url));

/** What a new project's .gitignore must hold: the local secrets, wrangler's local state, the dependencies. */
export const IGNORED = [".dev.vars", ".wrangler/", "node_modules/"];

/** What a folder may already hold for init to write into it. */
const KEPT = new Set([".git", ".gitignore"]);

function fail(message, code) {
  console.error(`slack-durable-coordinator: ${message}`);
  process.exit(code);
}

/** `folder` as an npm package name: lower case, URL-safe, no leading `.` or `_`, at most 214 characters, no Node built-in. */
export function packageNameOf(folder) {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._~-]+|[-~]+$/g, "")
    .slice(0, 214);
  if (!name) return "my-slack-worker";
  return builtinModules.includes(name) || name === "node_modules" || name === "favicon.ico" ? `${name}-worker` : name;
}

/** The .gitignore's text: `existing` with the lines of IGNORED it lacks (`/x` and `x/` count as `x`) added at its end. */
export function mergedGitignore(existing = "") {
  const plain = (line) => line.trim().replace(/^\//, "").replace(/\/$/, "");
  const has = new Set(existing.split(/\r?\n/).map(plain));
  const missing = IGNORED.filter((line) => !has.has(plain(line)));
  if (missing.length === 0) return existing;
  const head = existing === "" || existing.endsWith("\n") ? existing : `${existing}\n`;
  return `${head}${head === "" ? "" : "\n"}# Local secrets (wrangler dev reads .dev.vars), wrangler's local state, dependencies\n${missing.join("\n")}\n`;
}

/**
 * Where the package running this came from — so the next steps install what exists: `checkout`
 * (a clone of the repository: its sources are there, and `npm pack` makes the tarball),
 * `tarball` (npm installed it from a .tgz: its lockfile says so, as npx writes it for
 * `npx --package ./x.tgz`), `registry` (npm installed it from a registry), or `unknown`.
 */
export function installSource(root, name) {
  if (existsSync(join(root, "src/lib.ts"))) return { kind: "checkout", root };
  const modules = dirname(root);
  if (basename(modules) !== "node_modules") return { kind: "unknown" };
  const prefix = dirname(modules);
  for (const lockfile of [join(modules, ".package-lock.json"), join(prefix, "package-lock.json")]) {
    if (!existsSync(lockfile)) continue;
    const resolved = JSON.parse(readFileSync(lockfile, "utf8")).packages?.[`node_modules/${name}`]?.resolved;
    if (typeof resolved !== "string") continue;
    if (/^https?:\/\//.test(resolved)) return { kind: "registry" };
    const path = resolve(prefix, resolved.replace(/^file:/, ""));
    if (path.endsWith(".tgz")) return { kind: "tarball", path };
  }
  return { kind: "unknown" };
}

/** A path as a shell word. */
const word = (path) => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);

/** The lines that install the package (and the project's dev dependencies) into the new project. */
export function installSteps(source, own, dir, target) {
  const cd = `  cd ${word(target)}`;
  const fromTarball = (path) => {
    const shown = relative(dir, path);
    return `  npm install ${word(shown.startsWith("..") || isAbsolute(shown) ? shown : `./${shown}`)}`;
  };
  if (source.kind === "registry") return [cd, "  npm install"];
  if (source.kind === "tarball")
    return [cd, `${fromTarball(source.path)}   # ${own.name} from the tarball it came from; the rest from the registry`];
  if (source.kind === "checkout") {
    const tarball = join(dirname(dir), `${own.name}-${own.version}.tgz`);
    return [
      `  (cd ${word(source.root)} && npm pack --pack-destination ${word(dirname(dir))})   # builds ${basename(tarball)} beside the project`,
      cd,
      `${fromTarball(tarball)}   # ${own.name} from that tarball; the rest from the registry`,
    ];
  }
  return [
    cd,
    `  npm install                  # ${own.name}@^${own.version} from the registry; before its release there: npm install path/to/${own.name}-${own.version}.tgz`,
  ];
}

/** `init [dir]`: `args` are what follows `init` on the command line. */
export function initProject(args, root = join(here, "..")) {
  const [target = "my-slack-worker", ...extra] = args;
  if (target === "--help" || target === "-h") return console.log(USAGE);
  if (extra.length > 0 || target.startsWith("-")) fail(`unknown arguments: init ${args.join(" ")}\n\n${USAGE}`, 2);
  const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const starter = join(root, "dist/starter");
  if (!existsSync(starter)) fail("dist/starter is missing (in a checkout of the repository, run `npm run build` first)", 1);
  const dir = resolve(target);
  const found = existsSync(dir) ? readdirSync(dir).filter((entry) => !KEPT.has(entry)) : [];
  if (found.length > 0) fail(`${dir} exists and holds ${found.join(", ")}: nothing was written`, 1);
  const gitignore = join(dir, ".gitignore");
  const existingGitignore = existsSync(gitignore) ? readFileSync(gitignore, "utf8") : undefined;
  cpSync(starter, dir, { recursive: true });
  const projectFile = join(dir, "package.json");
  const project = JSON.parse(readFileSync(projectFile, "utf8"));
  project.name = packageNameOf(basename(dir));
  project.dependencies = { ...project.dependencies, [own.name]: `^${own.version}` };
  writeFileSync(projectFile, `${JSON.stringify(project, null, 2)}\n`);
  writeFileSync(gitignore, mergedGitignore(existingGitignore));
  const install = installSteps(installSource(root, own.name), own, dir, target);
  console.log(`wrote ${dir}: ${project.name}, on ${own.name} ^${own.version}. Next:

${install.join("\n")}
  npm test                     # its test, in workerd, against the package's fake Slack (Node 20 or 22: the node@22 dev dependency runs its scripts)
  cp .dev.vars.example .dev.vars   # local settings and secrets; .gitignore keeps .dev.vars out of git
  npm run fake-slack           # in one terminal: a fake Slack on 127.0.0.1:8788
  npm start                    # in another: the Worker on 127.0.0.1:8787

The guide: "Use it in your own Worker" (docs/guides/own-worker.md), linked from ${own.name}'s README.`);
}
