import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// The Worker runs in workerd, as deployed, with test settings; the tests route its outbound
// fetch to the test kit's FakeSlack, so the addresses below are never reached.
export default defineConfig({
  // The coordinator logs a JSON line per request: shown for failing tests only.
  test: { silent: "passed-only" },
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          SLACK_SIGNING_SECRET: "test-signing-secret",
          SLACK_BOT_TOKEN: "xoxb-test-token",
          SLACK_API_URL: "http://fake-slack.invalid/api/",
          RESPONSE_URL_ORIGINS: "http://fake-slack.invalid",
        },
      },
    }),
  ],
});
