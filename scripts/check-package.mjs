// `npm run check:package`: proves the packed library works in a Worker of someone else's — the
// example consumer project, examples/consumer/, that the docs' "Use it in your own Worker" walks
// through. Packs this package (`npm pack`, which builds it), writes the project into a temporary
// folder with the packed bin (`slack-durable-coordinator init`: the starter it ships), installs the tarball in place of the registry release and the project's own
// devDependencies from the npm registry, and runs what its user would: `wrangler types --check`,
// `npm run typecheck` (plus listener and Web API files that must, and must not, compile),
// `npm test` (its test with the package's kit, in workerd) and a bundle as `wrangler deploy`
// makes. The bundle then runs in workerd (Miniflare) and gets an app_mention signed by the packed
// SlackSimulator in Node: acked 200, its reply must reach a fake Slack Web API on 127.0.0.1.
// Last, the package's bins: `slack-fake` must serve, `slack-durable-coordinator manifest` must print the project's manifest. Only the registry and loopback are reached;
// bounded to 6 minutes.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const example = join(root, "examples/consumer");
const work = mkdtempSync(join(tmpdir(), "coordinator-package-"));
const started = Date.now();
const limitMs = 360_000;
// Runs between the synchronous steps (each of which has its own timeout, below).
const deadline = setTimeout(() => {
  console.error(`check:package: FAIL: did not finish within ${limitMs / 60_000} minutes`);
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}, limitMs);
const step = (text) => console.log(`check:package: [${((Date.now() - started) / 1000).toFixed(0)} s] ${text}`);
class CheckFailed extends Error {}
function fail(reason) {
  throw new CheckFailed(reason);
}
const childEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" };
/** Runs a command to its end (at most `stepMs`, never past the deadline), answering its stdout; its output is shown if it fails. */
function run(command, args, cwd, stepMs = 120_000) {
  const timeout = Math.max(1_000, Math.min(stepMs, limitMs - (Date.now() - started)));
  try {
    return execFileSync(command, args, { cwd, env: childEnv, encoding: "utf8", timeout, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const what = `${command} ${args.join(" ")} (in ${relative(work, cwd) || "."})`;
    if (error.code === "ETIMEDOUT" || error.signal === "SIGTERM") fail(`${what} did not finish within ${timeout / 1000} s`);
    fail(`${what} failed (${error.status}):\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  }
}

let mf;
let fakeSlack;

/** Does `version` satisfy the caret range `^a.b.c` (what a user writes for a 0.x or later release)? */
function satisfiesCaret(range, version) {
  const [want, have] = [/^\^(\d+)\.(\d+)\.(\d+)$/.exec(range), /^(\d+)\.(\d+)\.(\d+)/.exec(version)];
  if (!want || !have) return false;
  const [a, b] = [want.slice(1).map(Number), have.slice(1).map(Number)];
  const atLeast = b[0] > a[0] || (b[0] === a[0] && (b[1] > a[1] || (b[1] === a[1] && b[2] >= a[2])));
  return atLeast && b[0] === a[0] && (a[0] > 0 || b[1] === a[1]);
}

/** The example must be what a user writes, with the toolchain this repository is tested with. */
function checkExampleAgainstRepository(own) {
  const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const range = own.dependencies?.[ours.name];
  if (!satisfiesCaret(range ?? "", ours.version))
    fail(`examples/consumer depends on ${ours.name}@${range}, which ${ours.version} does not satisfy`);
  if (own.type !== "module") fail(`examples/consumer/package.json needs "type": "module" (vitest's config is ESM)`);
  for (const [name, wanted] of Object.entries(own.devDependencies ?? {}))
    if (ours.devDependencies[name] !== wanted)
      fail(`examples/consumer wants ${name}@${wanted}, this repository is tested with ${ours.devDependencies[name] ?? "none"}`);
  // The guide's install line for an existing project names these versions, so it works as written on Node 20.
  const line = `npm install -D ${Object.entries(own.devDependencies)
    .map(([name, wanted]) => `${name}@${wanted}`)
    .join(" ")}`;
  if (!readFileSync(join(root, "docs/guides/own-worker.md"), "utf8").includes(line))
    fail(`docs/guides/own-worker.md must give the tested versions in one line: ${line}`);
  const dateOf = (file) => /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(file, "utf8"))?.[1];
  const date = dateOf(join(root, "wrangler.toml"));
  if (dateOf(join(example, "wrangler.toml")) !== date)
    fail(`examples/consumer/wrangler.toml needs compatibility_date = "${date}"`);
  return date;
}

/** Starts the installed `slack-fake` bin on a free port and posts a message to it. */
async function checkFakeSlackBin(project) {
  const bin = spawn(join(project, "node_modules/.bin/slack-fake"), ["--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const apiUrl = await new Promise((found, failed) => {
      bin.stdout.on("data", (chunk) => {
        const url = /http:\/\/127\.0\.0\.1:\d+\/api\//.exec(String(chunk))?.[0];
        if (url) found(url);
      });
      bin.on("exit", (code) => failed(new CheckFailed(`slack-fake exited (${code}) before serving`)));
    });
    const answer = await fetch(`${apiUrl}chat.postMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ channel: "C1", text: "hi" }),
    }).then((response) => response.json());
    if (!answer.ok || !/^\d+\.\d+$/.test(answer.ts)) fail(`slack-fake answered chat.postMessage ${JSON.stringify(answer)}`);
  } finally {
    bin.kill();
  }
}
try {
  // 0. The example, as committed, is what a user writes with this repository's toolchain.
  const own = JSON.parse(readFileSync(join(example, "package.json"), "utf8"));
  const compatibilityDate = checkExampleAgainstRepository(own);
  step("examples/consumer matches this repository: its dependency range, devDependencies, compatibility_date");

  // 1. Pack, as `npm publish` would (prepack builds dist/).
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--silent", "--pack-destination", work], root));
  step(
    `packed ${packed.filename}: ${(packed.size / 1024).toFixed(1)} KiB, ${packed.entryCount} files (${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked)`,
  );
  const unexpected = packed.files
    .map((f) => f.path)
    .filter(
      (p) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|bin\/(fake-slack|coordinator-cli|localWorker|initProject)\.mjs|dist\/(index|testing)\.js(\.map)?|dist\/types\/.+\.d\.ts|dist\/starter\/.+)$/.test(
          p,
        ),
    );
  if (unexpected.length > 0) fail(`the tarball holds files a consumer does not need: ${unexpected.join(", ")}`);
  // The AI SDK is an optional peer: `sayStream().pipe()` reads its results structurally, so neither
  // the bundles nor the declarations may import it (an app without `ai` must load and compile).
  const declarations = readdirSync(join(root, "dist/types"), { recursive: true }).filter((f) => f.endsWith(".d.ts"));
  for (const file of ["dist/index.js", "dist/testing.js", ...declarations.map((f) => `dist/types/${f}`)]) {
    const text = readFileSync(join(root, file), "utf8");
    if (/\bfrom\s*["'](ai|ai\/[^"']*|@ai-sdk\/[^"']*)["']|import\(\s*["'](ai|@ai-sdk\/[^"']*)["']/.test(text))
      fail(`${file} imports the AI SDK, an optional peer dependency`);
  }
  step("the bundles and declarations import nothing of the AI SDK (an optional peer)");

  // 2. The example project as a user starts it: the packed bin's `init` writes the starter the
  // tarball holds (examples/consumer), then the tarball stands in for the registry release.
  const unpacked = join(work, "unpacked");
  mkdirSync(unpacked);
  run("tar", ["-xzf", join(work, packed.filename), "-C", unpacked], work);
  const project = join(work, "consumer");
  run("node", [join(unpacked, "package/bin/coordinator-cli.mjs"), "init", project], work);
  const initialized = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  if (JSON.stringify({ ...initialized, name: own.name }) !== JSON.stringify(own))
    fail(`init wrote a package.json other than examples/consumer's: ${JSON.stringify(initialized)}`);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      { ...own, dependencies: { ...own.dependencies, [packed.name]: `file:${join(work, packed.filename)}` } },
      null,
      2,
    ),
  );
  // Type-checked only: handlers get every Web API method typed, arguments and answers (not `any`).
  mkdirSync(join(project, "test/types"));
  writeFileSync(
    join(project, "test/types/typedClient.ts"),
    `import type { SlackWebClient } from "${packed.name}";
export async function realName(client: SlackWebClient, user: string): Promise<string | undefined> {
  const answer = await client.users.info({ user });
  // @ts-expect-error users.info takes a user id string, not a number
  await client.users.info({ user: 42 });
  return answer.user?.real_name;
}
`,
  );
  // Type-checked only: listener arguments carry Slack's payload types (resolved from @slack/types), no casts.
  writeFileSync(
    join(project, "test/types/typedListeners.ts"),
    `import { App } from "${packed.name}";
export const app = new App();
app.event("app_mention", async ({ event, say }) => { await say({ text: event.text, thread_ts: event.ts }); });
app.action("approve", async ({ body, action, respond }) => { await respond(\`\${action.action_id} by \${body.user.id}\`); });
// @ts-expect-error a misspelt block type does not compile
app.command("/x", async ({ say }) => { await say({ blocks: [{ type: "sectoin", text: { type: "mrkdwn", text: "x" } }] }); });
`,
  );
  // The test kit in plain Node, resolved through the package's `exports`.
  writeFileSync(
    join(project, "sign.mjs"),
    `import { SlackSimulator } from "${packed.name}/testing";
const request = await new SlackSimulator({ signingSecret: process.argv[2], teamId: "T0PACKAGE" }).appMention({
  user: "U1", text: "<@U0BOT> hi", ts: "1700000000.000100", channel: "C1",
});
console.log(JSON.stringify({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() }));
`,
  );
  step(
    `\`slack-durable-coordinator init\` wrote the starter (examples/consumer); installing the tarball and its devDependencies from the registry (${Object.keys(own.devDependencies).join(", ")})…`,
  );
  // Install scripts run: the node@22 dev dependency fetches its binary (from the registry) in one.
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], project, 240_000);
  step(
    `installed; its npm scripts run on Node ${run("npm", ["exec", "--", "node", "--version"], project).trim()} (the node@22 dev dependency)`,
  );

  // 3. What its user runs. `wrangler types --check`: the committed worker-configuration.d.ts is current.
  run("npm", ["run", "-s", "types", "--", "--check"], project);
  step("worker-configuration.d.ts is what `wrangler types` gives for its wrangler.toml and .dev.vars.example");
  run("npm", ["run", "-s", "typecheck"], project);
  step("tsc --noEmit (strict) passes against the package's declarations: its Worker, its test, typed listeners and Web API");
  const tested = run("npm", ["test"], project, 180_000);
  step(`npm test passes (the test kit against its Worker in workerd): ${/Tests\s+(.*)/.exec(tested)?.[1]?.trim() ?? "ok"}`);
  run("npm", ["exec", "--", "wrangler", "deploy", "--dry-run", "--outdir", "out"], project);
  step("bundled it with its own wrangler (deploy --dry-run)");

  // 4. A fake Slack Web API that records chat.postMessage.
  const posted = [];
  fakeSlack = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.url === "/api/chat.postMessage")
        posted.push({ auth: request.headers.authorization, body: Object.fromEntries(new URLSearchParams(body)) });
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ ok: true, channel: "C1", ts: "1700000000.000200" }));
    });
  });
  await new Promise((done) => fakeSlack.listen(0, "127.0.0.1", done));
  const apiUrl = `http://127.0.0.1:${fakeSlack.address().port}/api/`;

  // 5. Run the bundle in workerd and deliver a signed app_mention as Slack would.
  const secret = "package-check-secret";
  // Miniflare 5 takes a new options shape; its converter accepts the documented v4 one.
  mf = new Miniflare(
    convertV4MiniflareOptions({
      telemetry: { enabled: false },
      modules: true,
      scriptPath: join(project, "out/index.js"),
      modulesRoot: join(project, "out"),
      compatibilityDate,
      bindings: { SLACK_SIGNING_SECRET: secret, SLACK_BOT_TOKEN: "xoxb-package-check", SLACK_API_URL: apiUrl },
      durableObjects: { SHARD: { className: "Shard", useSQLite: true } },
    }),
  );
  // Signed by the package's own SlackSimulator, run in Node from the consumer project.
  const signed = JSON.parse(run("node", ["sign.mjs", secret], project));
  const response = await mf.dispatchFetch(`http://127.0.0.1${new URL(signed.url).pathname}`, {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });
  if (response.status !== 200) fail(`the signed app_mention was answered ${response.status}: ${await response.text()}`);
  step("the bundle in workerd acked 200 an app_mention signed by slack-durable-coordinator/testing (in Node)");
  for (let waited = 0; posted.length === 0 && waited < 10_000; waited += 100) await new Promise((done) => setTimeout(done, 100));
  const [reply] = posted;
  if (!reply) fail("no chat.postMessage reached the fake Slack within 10 s");
  const { text, channel, thread_ts } = reply.body;
  if (
    text !== "Hi! You said: <@U0BOT> hi" ||
    channel !== "C1" ||
    thread_ts !== "1700000000.000100" ||
    reply.auth !== "Bearer xoxb-package-check"
  )
    fail(`unexpected reply: ${JSON.stringify(reply)}`);
  step(`its reply reached the fake Web API: chat.postMessage ${JSON.stringify(reply.body)}`);
  await checkFakeSlackBin(project);
  step("its bin `slack-fake` serves the test kit's FakeSlack on 127.0.0.1: chat.postMessage answered with a ts");
  // The manifest command runs the project's own Worker under its wrangler dev (127.0.0.1) and stops it.
  const cli = join(project, "node_modules/.bin/slack-durable-coordinator");
  const manifest = JSON.parse(run(cli, ["manifest", "--url", "https://consumer.example.com"], project));
  const events = manifest.settings?.event_subscriptions;
  if (
    events?.request_url !== "https://consumer.example.com/slack/events" ||
    !events.bot_events.includes("app_mention") ||
    manifest.features?.slash_commands?.[0]?.command !== "/hello"
  )
    fail(`unexpected manifest: ${JSON.stringify(manifest)}`);
  step(`its bin \`slack-durable-coordinator manifest\` prints the project's manifest: ${events.bot_events.join(", ")}`);
  step("PASS");
} catch (error) {
  console.error(`check:package: FAIL: ${error instanceof CheckFailed ? error.message : (error.stack ?? error)}`);
  process.exitCode = 1;
} finally {
  await mf?.dispose();
  fakeSlack?.close();
  clearTimeout(deadline);
  rmSync(work, { recursive: true, force: true });
}
