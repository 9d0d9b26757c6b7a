import { TEST_PREVIOUS_SIGNING_SECRET, TEST_SIGNING_SECRET } from "./secrets.ts";

/** Where the fake Slack answers: loopback's discard port, so a leaked real fetch goes nowhere. */
export const FAKE_SLACK_ORIGIN = "http://127.0.0.1:9";

/**
 * The settings the Workers under test run with (vitest.config.ts passes them to Miniflare).
 * Tests read their numbers from here rather than copying them.
 */
export const TEST_BINDINGS = {
  SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
  SLACK_SIGNING_SECRET_PREVIOUS: TEST_PREVIOUS_SIGNING_SECRET,
  SLACK_BOT_TOKEN: "xoxb-test-token",
  ADMIN_TOKEN: "test-admin-token",
  SLACK_API_URL: `${FAKE_SLACK_ORIGIN}/api/`,
  RESPONSE_URL_ORIGINS: FAKE_SLACK_ORIGIN,
  DELIVERY_TIMEOUT_MS: "1000",
  LEASE_MS: "5000",
  HANDLER_MAX_ATTEMPTS: "3",
} as const;

export const LEASE_MS = Number(TEST_BINDINGS.LEASE_MS);
export const DELIVERY_TIMEOUT_MS = Number(TEST_BINDINGS.DELIVERY_TIMEOUT_MS);
export const HANDLER_MAX_ATTEMPTS = Number(TEST_BINDINGS.HANDLER_MAX_ATTEMPTS);
