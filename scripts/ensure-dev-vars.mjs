// `npm start` helper: gives a fresh clone a .dev.vars so the local Worker can verify requests,
// a random ADMIN_TOKEN (the example's is public: a tunnel would expose /admin with it), and a
// development TOKEN_ENCRYPTION_KEY (OAuth mode never stores tokens unencrypted).

import { randomBytes } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/** The example's ADMIN_TOKEN, and the older local default before it: both public, in this repository. */
const PUBLIC_ADMIN_TOKEN = /^ADMIN_TOKEN=(dev-admin-token-local|dev-admin-token)[ \t]*$/m;
const randomAdminToken = () => `ADMIN_TOKEN=${randomBytes(32).toString("hex")}`;
const where = resolve(".dev.vars");

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  writeFileSync(".dev.vars", readFileSync(".dev.vars", "utf8").replace(PUBLIC_ADMIN_TOKEN, randomAdminToken()));
  console.log(
    `Created ${where} from .dev.vars.example (SLACK_SIGNING_SECRET=dev-signing-secret: edit it to use your app's secret), with a random ADMIN_TOKEN: /admin signs in with the ADMIN_TOKEN line of that file.`,
  );
}

// A user's .dev.vars is never rewritten silently: a public token is named, with the fix.
const devVars = readFileSync(".dev.vars", "utf8");
if (PUBLIC_ADMIN_TOKEN.test(devVars)) {
  console.warn(
    `ADMIN_TOKEN in ${where} is the public example value: anyone who reaches this Worker (a tunnel, \`slack run\`) can use /admin. Replace it with a random one (e.g. the output of \`openssl rand -hex 32\`).`,
  );
} else if (/^ADMIN_TOKEN=.{1,15}$/m.test(devVars)) {
  console.warn("ADMIN_TOKEN in .dev.vars is shorter than 16 characters: /admin/* will answer a configuration error.");
}

// The demo runs as an agent session (docs/guides/ai-agent.md): a .dev.vars from before that default says nothing of it.
if (!/^\s*AGENT_SESSIONS\s*=/m.test(readFileSync(".dev.vars", "utf8"))) {
  appendFileSync(
    ".dev.vars",
    "\n# The demo is an agent: each turn marks its session processing, then active. An app on the assistant view sets false.\nAGENT_SESSIONS=true\n",
  );
  console.log("Added AGENT_SESSIONS=true to .dev.vars: the demo runs as an agent session (AGENT_SESSIONS=false turns it off).");
}

if (!/^TOKEN_ENCRYPTION_KEY=/m.test(readFileSync(".dev.vars", "utf8"))) {
  const key = randomBytes(32).toString("base64");
  appendFileSync(
    ".dev.vars",
    `\n# A development key written by npm start; never reuse it anywhere else.\nTOKEN_ENCRYPTION_KEY=${key}\n`,
  );
  console.log("Wrote a fresh development TOKEN_ENCRYPTION_KEY into .dev.vars (used in OAuth mode only).");
}

// Locally every request's `slack request` line is shown (docs/tutorial.md); a deployed Worker logs only the exceptions.
if (!/^\s*LOG_ACKED_REQUESTS\s*=/m.test(readFileSync(".dev.vars", "utf8"))) {
  appendFileSync(
    ".dev.vars",
    "\n# A `slack request` log line for every request, accepted ones included.\nLOG_ACKED_REQUESTS=true\n",
  );
  console.log("Added LOG_ACKED_REQUESTS=true to .dev.vars: every request's log line is shown locally.");
}
