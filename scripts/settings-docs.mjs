// `npm run settings:docs` writes docs/reference/settings.md from the settings table
// (src/settings/table.ts); `npm run settings:check` (CI) fails when that file is not what the
// table gives — a setting added, renamed or redocumented without regenerating the page.
// Plain JS: esbuild bundles the table for Node, nothing is built beforehand.

import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const page = resolve(root, "docs/reference/settings.md");

/** Each part's heading and who reads its settings, in the page's order. */
const PARTS = {
  edge: ["The edge", "The front Worker, on every Slack request."],
  admin: ["The operations API", "`/admin/*` and the operations console."],
  record: ["Recording", "A shard, as it records a delivery: a bad value stops recording (Slack retries)."],
  delivery: ["Delivery", "A shard, as it delivers effects: a bad value pauses delivery (events are still recorded and acked)."],
  relay: ["Relay mode", "On when `RELAY_URL` is set; read by the edge and by a shard's delivery."],
  alerts: ["Alerts and the auto-disable guard", "The watch; a bad value falls back to its default, logged (deliveries go on)."],
  spread: ["Automatic spread", "The watch, which decides; a bad value falls back to its default, logged (deliveries go on)."],
  oauth: [
    "OAuth: many workspaces",
    "On when `SLACK_CLIENT_ID` and `SLACK_CLIENT_SECRET` are set; the install flow and the token store.",
  ],
};

const INTRO = `# Settings

Generated from the settings table (\`src/settings/table.ts\`) by \`npm run settings:docs\`; CI
fails when this page is not what the table gives.

Set as \`[vars]\` in \`wrangler.toml\`, as secrets (\`wrangler secret put NAME\`), or locally in
\`.dev.vars\`. Settings are parsed once per isolate, by the part that uses them (the sections
below): the Slack path reads only the signing secrets, \`ACK_BUDGET_MS\` and \`SHARD_BUCKETS\`;
\`/admin\` reads \`ADMIN_TOKEN\`; a shard records with \`RECEIPT_RETENTION_HOURS\`, keeps
thread contexts \`THREAD_CONTEXT_RETENTION_DAYS\` and delivers with the rest. An invalid value
is never guessed (the one adjustment: a \`DELIVERY_CONCURRENCY\` above 6 is capped at 6, the
Workers limit): it is refused with \`InvalidSetting\` naming the setting, and what that stops
depends on who reads it — see
[Operations](../guides/operations.md#settings-where-they-go-what-a-bad-one-stops).

Switches (\`SLACK_PACING\`, \`SLACK_OAUTH_ALLOW_NO_STATE\`) are \`true\` or \`false\`; \`on\` and
\`off\` are accepted too.
`;

async function loadTable() {
  const bundled = await build({
    entryPoints: [resolve(root, "src/settings/table.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const source = bundled.outputFiles[0].text;
  return (await import(`data:text/javascript;base64,${Buffer.from(source).toString("base64")}`)).SETTINGS;
}

function render(settings) {
  const entries = Object.entries(settings);
  const unknown = entries.filter(([, entry]) => !(entry.part in PARTS)).map(([name, entry]) => `${name} (${entry.part})`);
  if (unknown.length) throw new Error(`settings-docs: no heading for the part of ${unknown.join(", ")}`);
  const sections = Object.entries(PARTS).flatMap(([part, [heading, readers]]) => {
    const rows = [];
    for (const [name, entry] of entries.filter(([, entry]) => entry.part === part)) {
      const meaning = entry.also ? `${entry.doc} (also read by: ${entry.also.join(", ")})` : entry.doc;
      const previous = rows.at(-1);
      // Settings that only work together (SLACK_CLIENT_ID and _SECRET) share one doc line, and one row.
      if (previous && previous.meaning === meaning && previous.shown === entry.read.shown) previous.names.push(name);
      else rows.push({ names: [name], shown: entry.read.shown, meaning });
    }
    if (rows.length === 0) return [];
    const lines = rows.map((row) => `| ${row.names.map((name) => `\`${name}\``).join(", ")} | ${row.shown} | ${row.meaning} |`);
    return [`## ${heading}`, "", readers, "", "| name | default | meaning |", "|---|---|---|", ...lines, ""];
  });
  return `${INTRO}\n${sections.join("\n")}`;
}

const expected = render(await loadTable());
if (process.argv.includes("--check")) {
  let actual = "";
  try {
    actual = readFileSync(page, "utf8");
  } catch {}
  if (actual !== expected) {
    console.error("docs/reference/settings.md is stale: run `npm run settings:docs` and commit it.");
    process.exit(1);
  }
  console.log("docs/reference/settings.md matches the settings table.");
} else {
  writeFileSync(page, expected);
  console.log(`wrote ${page}`);
}
