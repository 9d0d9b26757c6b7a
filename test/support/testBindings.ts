import { TEST_PREVIOUS_SIGNING_SECRET, TEST_SIGNING_SECRET } from "./secrets.ts";

/** Where the fake Slack answers: loopback's discard port, so a leaked real fetch goes nowhere. */
export const FAKE_SLACK_ORIGIN = "http://127.0.0.1:9";

/** A fixed 32-byte key for tests only ("0123456789abcdef" twice), base64. */
export const TEST_TOKEN_ENCRYPTION_KEY = btoa("0123456789abcdef0123456789abcdef");

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
  // Custom steps' tokens are sealed under it in single-workspace mode too.
  TOKEN_ENCRYPTION_KEY: TEST_TOKEN_ENCRYPTION_KEY,
  // The engine's tests were written on the assistant view (the Worker's default was then off); the agent
  // view's tests set it true (workspaceShardIn's settings, STARTER_AGENT_TEST_BINDINGS).
  AGENT_SESSIONS: "false",
} as const;

/**
 * The demo's settings in the "example" project, over what `npm start` gives it (.dev.vars.example,
 * vitest.config.ts): the test secrets and fake Slack, and a stand-in model counting one number
 * every 5 ms instead of 50 (a stop can still meet it mid-answer).
 */
export const EXAMPLE_TEST_BINDINGS = { ...withoutAgentSessions(TEST_BINDINGS), DEMO_COUNT_INTERVAL_MS: "5" };

/** `bindings` without AGENT_SESSIONS: the Worker's default (or .dev.vars.example's) decides. */
function withoutAgentSessions(bindings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(bindings).filter(([name]) => name !== "AGENT_SESSIONS"));
}

export const LEASE_MS = Number(TEST_BINDINGS.LEASE_MS);
export const DELIVERY_TIMEOUT_MS = Number(TEST_BINDINGS.DELIVERY_TIMEOUT_MS);
export const HANDLER_MAX_ATTEMPTS = Number(TEST_BINDINGS.HANDLER_MAX_ATTEMPTS);

/**
 * OAuth mode's settings for the "oauth" test project: no SLACK_BOT_TOKEN, so every token an
 * effect uses must come from an installation.
 */
export const OAUTH_TEST_BINDINGS = {
  ...Object.fromEntries(Object.entries(TEST_BINDINGS).filter(([name]) => name !== "SLACK_BOT_TOKEN")),
  SLACK_CLIENT_ID: "1111.2222",
  SLACK_CLIENT_SECRET: "test-client-secret",
  SLACK_SCOPES: "app_mentions:read,chat:write",
  SLACK_REDIRECT_URI: "https://coordinator.test/slack/oauth_redirect",
  SLACK_OAUTH_AUTHORIZE_URL: `${FAKE_SLACK_ORIGIN}/oauth/v2/authorize`,
  TOKEN_ENCRYPTION_KEY: TEST_TOKEN_ENCRYPTION_KEY,
};

/** The existing backend relay mode forwards to, in the "relay" test project (loopback, nothing listens). */
export const RELAY_BACKEND_URL = "http://127.0.0.1:11/slack/events";
export const RELAY_SIGNING_SECRET = "backend-signing-secret";
/** 36 seconds: the retry horizon is reached within a test's controlled clock. */
export const RELAY_RETRY_HOURS = 0.01;

/** Where alerts go in the "relay" test project and the starter agent's port (a fake receiver; loopback, nothing listens). */
export const ALERT_RECEIVER_URL = "http://127.0.0.1:12/alerts";

/**
 * Slack's starter agent, ported (port:starterAgent): an app on Slack's agent view (AGENT_SESSIONS,
 * so the stop button reaches it), with alerts on, so a test can see that a stop alerts nobody.
 */
export const STARTER_AGENT_TEST_BINDINGS = { ...TEST_BINDINGS, AGENT_SESSIONS: "true", ALERT_WEBHOOK_URL: ALERT_RECEIVER_URL };

/** How long the ack of a command or interaction waits for the backend, shortened for tests. */
export const RELAY_SYNC_MS = 400;

/** Relay mode's settings for the "relay" test project (the engine's, plus RELAY_URL), with alerts on. */
export const RELAY_TEST_BINDINGS = {
  ...TEST_BINDINGS,
  RELAY_URL: RELAY_BACKEND_URL,
  RELAY_SIGNING_SECRET,
  RELAY_RETRY_HOURS: String(RELAY_RETRY_HOURS),
  RELAY_SYNC_MS: String(RELAY_SYNC_MS),
  ALERT_WEBHOOK_URL: ALERT_RECEIVER_URL,
};
