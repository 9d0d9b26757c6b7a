// `npm start` helper: gives a fresh clone a .dev.vars so the local Worker can verify requests.
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log(
    "Created .dev.vars from .dev.vars.example (SLACK_SIGNING_SECRET=dev-signing-secret, ADMIN_TOKEN=dev-admin-token). Edit it to use your app's secret.",
  );
}
