import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { TEST_PREVIOUS_SIGNING_SECRET, TEST_SIGNING_SECRET } from "./test/support/secrets.ts";

// Tests run the real Worker and shards in workerd; only Slack's side is faked.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
          SLACK_SIGNING_SECRET_PREVIOUS: TEST_PREVIOUS_SIGNING_SECRET,
          SLACK_BOT_TOKEN: "xoxb-test-token",
          ADMIN_TOKEN: "test-admin-token",
          // Loopback's discard port: fetch is faked in tests, and a leaked real call goes nowhere.
          SLACK_API_URL: "http://127.0.0.1:9/api/",
          DELIVERY_TIMEOUT_MS: "1000",
          LEASE_MS: "5000",
        },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/fetchGuard.ts"],
    // Each request logs a JSON line; show them only for failing tests.
    silent: "passed-only",
  },
});
