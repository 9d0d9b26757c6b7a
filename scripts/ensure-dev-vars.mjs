// `npm start` helper: gives a fresh clone a .dev.vars so the local Worker can verify requests,
// and a development TOKEN_ENCRYPTION_KEY (OAuth mode never stores tokens unencrypted).

import { randomBytes } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log(
    "Created .dev.vars from .dev.vars.example (SLACK_SIGNING_SECRET=dev-signing-secret, ADMIN_TOKEN=dev-admin-token-local). Edit it to use your app's secret.",
  );
}

// The admin API refuses an ADMIN_TOKEN under 16 characters: the old local default is replaced, any other is named.
const devVars = readFileSync(".dev.vars", "utf8");
if (/^ADMIN_TOKEN=dev-admin-token$/m.test(devVars)) {
  writeFileSync(".dev.vars", devVars.replace(/^ADMIN_TOKEN=dev-admin-token$/m, "ADMIN_TOKEN=dev-admin-token-local"));
  console.log("Replaced ADMIN_TOKEN=dev-admin-token in .dev.vars by dev-admin-token-local (16 characters at least).");
} else {
  if (/^ADMIN_TOKEN=.{1,15}$/m.test(devVars))
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
