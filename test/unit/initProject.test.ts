import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// `slack-durable-coordinator init` (bin/initProject.mjs, through bin/coordinator-cli.mjs), issue 46
// point 7: its next steps install the package the way the running copy came (a version not on the
// registry is never asked of it), the project is named after its folder, and a .gitignore keeps
// .dev.vars out of git. The package is laid out in a temporary folder as npm lays it out — an npx
// cache with its lockfile, or a checkout — with the repository's bin and starter; nothing is installed.

const root = fileURLToPath(new URL("../..", import.meta.url));
const starter = JSON.parse(readFileSync(join(root, "examples/consumer/package.json"), "utf8"));
const NAME = "slack-durable-coordinator";
const VERSION = "0.1.0";

let work: string;
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** The package at `at` (its bin, package.json and dist/starter); a checkout also has its sources. */
function packageAt(at: string, checkout = false): string {
  mkdirSync(join(at, "bin"), { recursive: true });
  for (const file of ["coordinator-cli.mjs", "initProject.mjs", "localWorker.mjs"])
    cpSync(join(root, "bin", file), join(at, "bin", file));
  writeFileSync(join(at, "package.json"), JSON.stringify({ name: NAME, version: VERSION, type: "module" }));
  cpSync(join(root, "examples/consumer"), join(at, "dist/starter"), {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|\.wrangler|\.dev\.vars)$/.test(path),
  });
  if (checkout) {
    mkdirSync(join(at, "src"));
    writeFileSync(join(at, "src/lib.ts"), "export {};\n");
  }
  return at;
}

/** The package as npx installs it into its cache (`prefix`), its lockfile naming where it was `resolved` from. */
function installedAt(prefix: string, resolved: string): string {
  const installed = packageAt(join(prefix, "node_modules", NAME));
  const lock = { name: "npx", lockfileVersion: 3, packages: { [`node_modules/${NAME}`]: { version: VERSION, resolved } } };
  writeFileSync(join(prefix, "node_modules/.package-lock.json"), JSON.stringify(lock));
  return installed;
}

async function init(pkg: string, cwd: string, ...args: string[]) {
  mkdirSync(cwd, { recursive: true });
  const { stdout } = await promisify(execFile)("node", [join(pkg, "bin/coordinator-cli.mjs"), "init", ...args], {
    cwd,
    timeout: 20_000,
  });
  return stdout;
}

const read = (path: string) => readFileSync(path, "utf8");
const projectOf = (dir: string) => JSON.parse(read(join(dir, "package.json")));

describe("init", () => {
  it("installed from the registry: names the project after its folder, writes a .gitignore, and says npm install", async () => {
    work = mkdtempSync(join(tmpdir(), "init-registry-"));
    const pkg = installedAt(join(work, "npx"), `https://registry.npmjs.org/${NAME}/-/${NAME}-${VERSION}.tgz`);
    const out = await init(pkg, join(work, "projects"), "My Slack Bot");
    const dir = join(work, "projects/My Slack Bot");
    // The starter's package.json, but for its name: the folder's, as an npm name.
    expect(projectOf(dir)).toEqual({ ...starter, name: "my-slack-bot" });
    expect(read(join(dir, ".gitignore")).split("\n")).toEqual(
      expect.arrayContaining([".dev.vars", ".wrangler/", "node_modules/"]),
    );
    expect(out).toContain("\n  cd 'My Slack Bot'\n  npm install\n  npm test");
  });

  it("installed from a tarball (npx --package ./x.tgz): installs that tarball, never the registry's version", async () => {
    work = mkdtempSync(join(tmpdir(), "init-tarball-"));
    // npx writes the tarball's path relative to its cache folder.
    const pkg = installedAt(join(work, "npx"), `file:../tarballs/${NAME}-${VERSION}.tgz`);
    const out = await init(pkg, join(work, "projects"), "bot");
    expect(projectOf(join(work, "projects/bot")).name).toBe("bot");
    expect(out).toContain(`\n  cd bot\n  npm install ../../tarballs/${NAME}-${VERSION}.tgz   #`);
    expect(out).not.toMatch(/^ {2}npm install\s*$/m);
  });

  it("from a checkout, into the current folder (holding .git and a .gitignore): packs first; the .gitignore gains its lines", async () => {
    work = mkdtempSync(join(tmpdir(), "init-checkout-"));
    const repo = packageAt(join(work, "repo"), true);
    const dir = join(work, "projects/Team_Bot");
    mkdirSync(join(dir, ".git"), { recursive: true });
    writeFileSync(join(dir, ".git/HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(dir, ".gitignore"), "node_modules\n*.log");
    const out = await init(repo, dir, ".");
    expect(projectOf(dir).name).toBe("team_bot");
    // Its own lines kept; node_modules (already there) not again; the secrets and wrangler's state added.
    const lines = read(join(dir, ".gitignore")).split("\n");
    expect(lines.slice(0, 2)).toEqual(["node_modules", "*.log"]);
    expect(lines.filter((line) => line.includes("node_modules"))).toHaveLength(1);
    expect(lines).toEqual(expect.arrayContaining([".dev.vars", ".wrangler/"]));
    expect(read(join(dir, ".git/HEAD"))).toBe("ref: refs/heads/main\n");
    expect(out).toContain(`\n  (cd ${repo} && npm pack --pack-destination ${join(work, "projects")})`);
    expect(out).toContain(`\n  cd .\n  npm install ../${NAME}-${VERSION}.tgz   #`);
  });

  it("refuses a folder holding anything else, and writes nothing", async () => {
    work = mkdtempSync(join(tmpdir(), "init-refused-"));
    const pkg = installedAt(join(work, "npx"), `https://registry.npmjs.org/${NAME}/-/${NAME}-${VERSION}.tgz`);
    const dir = join(work, "projects/taken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    await expect(init(pkg, join(work, "projects"), "taken")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("holds notes.txt: nothing was written"),
    });
    expect(existsSync(join(dir, "package.json"))).toBe(false);
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
  });
});
