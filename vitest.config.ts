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
        },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    // Each request logs a JSON line; show them only for failing tests.
    silent: "passed-only",
  },
});
