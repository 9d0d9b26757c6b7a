// `npm run check:package`: proves the packed library works in a Worker of someone else's.
// Packs this package (`npm pack`, which builds it), makes a minimal Worker project in a
// temporary folder that installs the tarball, bundles it with wrangler as a deploy would, runs
// it in workerd (Miniflare) and sends an app_mention signed by the package's test kit
// (`slack-durable-coordinator/testing`, imported in Node by package name): it must be acked 200
// and its reply must reach a fake Slack Web API on 127.0.0.1. Nothing leaves the machine; bounded to 3 minutes.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const work = mkdtempSync(join(tmpdir(), "coordinator-package-"));
const deadline = setTimeout(() => {
  console.error("check:package: FAIL: did not finish within 3 minutes");
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}, 180_000);
const step = (text) => console.log(`check:package: ${text}`);
class CheckFailed extends Error {}
function fail(reason) {
  throw new CheckFailed(reason);
}
const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

let mf;
let fakeSlack;

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
  // 1. Pack, as `npm publish` would (prepack builds dist/).
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--silent", "--pack-destination", work], root));
  step(
    `packed ${packed.filename}: ${(packed.size / 1024).toFixed(1)} KiB, ${packed.entryCount} files (${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked)`,
  );
  const unexpected = packed.files
    .map((f) => f.path)
    .filter(
      (p) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|bin\/fake-slack\.mjs|dist\/(index|testing)\.js(\.map)?|dist\/types\/.+\.d\.ts)$/.test(
          p,
        ),
    );
  if (unexpected.length > 0) fail(`the tarball holds files a consumer does not need: ${unexpected.join(", ")}`);

  // 2. A Worker project of a consumer's, exactly as README "Use it in your own Worker" shows.
  const project = join(work, "consumer");
  mkdirSync(join(project, "src"), { recursive: true });
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"))[1];
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      { name: "consumer", private: true, type: "module", dependencies: { [packed.name]: `file:../${packed.filename}` } },
      null,
      2,
    ),
  );
  writeFileSync(
    join(project, "wrangler.toml"),
    `name = "consumer"
main = "src/worker.ts"
compatibility_date = "${compatibilityDate}"

[[durable_objects.bindings]]
name = "SHARD"
class_name = "Shard"

[[durable_objects.bindings]]
name = "INSTALLATIONS"
class_name = "Installations"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["Shard"]

[[migrations]]
tag = "v2"
new_sqlite_classes = ["Installations"]
`,
  );
  writeFileSync(
    join(project, "src/worker.ts"),
    `import { App, createCoordinator } from "${packed.name}";
const app = new App();
app.event("app_mention", async ({ say }) => { await say("hi"); });
const { worker, Shard, Installations } = createCoordinator({ app });
export { Installations, Shard };
export default worker;
`,
  );
  // Type-checked only: handlers get every Web API method typed, arguments and answers (not `any`).
  writeFileSync(
    join(project, "src/typedClient.ts"),
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
    join(project, "src/typedListeners.ts"),
    `import { App } from "${packed.name}";
export const app = new App();
app.event("app_mention", async ({ event, say }) => { await say({ text: event.text, thread_ts: event.ts }); });
app.action("approve", async ({ body, action, respond }) => { await respond(\`\${action.action_id} by \${body.user.id}\`); });
// @ts-expect-error a misspelt block type does not compile
app.command("/x", async ({ say }) => { await say({ blocks: [{ type: "sectoin", text: { type: "mrkdwn", text: "x" } }] }); });
`,
  );
  // The test kit, type-checked from its declarations and run in plain Node (resolved through `exports`).
  writeFileSync(
    join(project, "src/kit.ts"),
    `import { FakeSlack, SlackSimulator } from "${packed.name}/testing";
export const simulate = new SlackSimulator({ signingSecret: "s", teamId: "T1" });
export const slack: FakeSlack = new FakeSlack();
export const mention: Promise<Request> = simulate.appMention({ channel: "C1" });
`,
  );
  writeFileSync(
    join(project, "sign.mjs"),
    `import { SlackSimulator } from "${packed.name}/testing";
const request = await new SlackSimulator({ signingSecret: process.argv[2], teamId: "T0PACKAGE" }).appMention({
  user: "U1", text: "<@U0BOT> hi", ts: "1700000000.000100", channel: "C1",
});
console.log(JSON.stringify({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() }));
`,
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], project);
  step("installed the tarball into a new Worker project");
  // The consumer's code type-checks against the package's declarations (strict, as wrangler's templates are).
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        module: "es2022",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        lib: ["es2022"],
        typeRoots: [join(root, "node_modules/@cloudflare")],
        types: ["workers-types"],
      },
      include: ["src"],
    }),
  );
  run(join(root, "node_modules/.bin/tsc"), ["-p", "."], project);
  step(
    "its Worker type-checks against the package's declarations (tsc --strict), listener payloads and Web API typed, and the test kit",
  );

  // 3. Bundle it as `wrangler deploy` would, with this repository's wrangler.
  run(join(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", "out"], project);
  step("bundled it with wrangler (deploy --dry-run)");

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
      scriptPath: join(project, "out/worker.js"),
      modulesRoot: join(project, "out"),
      compatibilityDate,
      bindings: { SLACK_SIGNING_SECRET: secret, SLACK_BOT_TOKEN: "xoxb-package-check", SLACK_API_URL: apiUrl },
      durableObjects: {
        SHARD: { className: "Shard", useSQLite: true },
        INSTALLATIONS: { className: "Installations", useSQLite: true },
      },
    }),
  );
  {
    // Signed by the package's own SlackSimulator, run in Node from the consumer project.
    const signed = JSON.parse(run("node", ["sign.mjs", secret], project));
    const response = await mf.dispatchFetch(`http://127.0.0.1${new URL(signed.url).pathname}`, {
      method: "POST",
      headers: signed.headers,
      body: signed.body,
    });
    if (response.status !== 200) fail(`the signed app_mention was answered ${response.status}: ${await response.text()}`);
    step("the app_mention signed by slack-durable-coordinator/testing (in Node) was acked 200");
    for (let waited = 0; posted.length === 0 && waited < 10_000; waited += 100)
      await new Promise((done) => setTimeout(done, 100));
    const [reply] = posted;
    if (!reply) fail("no chat.postMessage reached the fake Slack within 10 s");
    if (reply.body.text !== "hi" || reply.body.channel !== "C1" || reply.auth !== "Bearer xoxb-package-check") {
      fail(`unexpected reply: ${JSON.stringify(reply)}`);
    }
    step(`its reply reached the fake Web API: chat.postMessage ${JSON.stringify(reply.body)}`);
    await checkFakeSlackBin(project);
    step("its bin `slack-fake` serves the test kit's FakeSlack on 127.0.0.1: chat.postMessage answered with a ts");
    step("PASS");
  }
} catch (error) {
  console.error(`check:package: FAIL: ${error instanceof CheckFailed ? error.message : (error.stack ?? error)}`);
  process.exitCode = 1;
} finally {
  await mf?.dispose();
  fakeSlack?.close();
  clearTimeout(deadline);
  rmSync(work, { recursive: true, force: true });
}
