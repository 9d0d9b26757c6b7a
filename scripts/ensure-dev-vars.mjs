// `npm start` helper: gives a fresh clone a .dev.vars so the local Worker can verify requests,
// and a development TOKEN_ENCRYPTION_KEY (OAuth mode never stores tokens unencrypted).

import { randomBytes } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log(
    "Created .dev.vars from .dev.vars.example (SLACK_SIGNING_SECRET=dev-signing-secret, ADMIN_TOKEN=dev-admin-token). Edit it to use your app's secret.",
  );
}

if (!/^TOKEN_ENCRYPTION_KEY=/m.test(readFileSync(".dev.vars", "utf8"))) {
  const key = randomBytes(32).toString("base64");
  appendFileSync(
    ".dev.vars",
    `\n# A development key written by npm start; never reuse it anywhere else.\nTOKEN_ENCRYPTION_KEY=${key}\n`,
  );
  console.log("Wrote a fresh development TOKEN_ENCRYPTION_KEY into .dev.vars (used in OAuth mode only).");
}
