import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { devVarsExample } from "./test/support/devVarsExample.ts";
import { quietExpectedFaults } from "./test/support/quietExpectedFaults.ts";
import {
  EXAMPLE_TEST_BINDINGS,
  OAUTH_TEST_BINDINGS,
  RELAY_TEST_BINDINGS,
  STARTER_AGENT_TEST_BINDINGS,
  TEST_BINDINGS,
} from "./test/support/testBindings.ts";

quietExpectedFaults();

/** A Worker under test in workerd, with the test settings; only Slack's side is faked. */
function workerUnderTest(main: string, bindings: Record<string, string> = TEST_BINDINGS) {
  return cloudflareTest({ main, wrangler: { configPath: "./wrangler.toml" }, miniflare: { bindings } });
}

const shared = { setupFiles: ["test/support/fetchGuard.ts"] };

/**
 * The folders of test/ that are projects of their own (their runtime or their Worker differs);
 * every other folder holds the coordinator project's tests, one folder per capability.
 */
const OWN_PROJECTS = ["unit", "oauth", "relay", "browser", "ports", "example"];

export default defineConfig({
  test: {
    // Each request logs a JSON line; show them only for failing tests (a root-level option).
    silent: "passed-only",
    projects: [
      {
        // Plain functions (parsing, signatures, routing, classification, pacing, settings …) in
        // Node: no workerd to start, so the fast feedback loop stays fast.
        test: { name: "unit", include: ["test/unit/*.test.ts"], environment: "node", ...shared },
      },
      {
        // The engine, driven through a Worker of its own with a small test app (test/worker.ts):
        // test/streams/, test/delivery/, … — a folder per capability.
        plugins: [workerUnderTest("./test/worker.ts")],
        test: {
          name: "coordinator",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...OWN_PROJECTS.map((folder) => `test/${folder}/**`)],
          ...shared,
        },
      },
      {
        // OAuth (multi-workspace) mode: installs, per-installation tokens, lifecycle — the test
        // Worker again, without SLACK_BOT_TOKEN (the demo is the example project's, end to end).
        plugins: [workerUnderTest("./test/worker.ts", OAUTH_TEST_BINDINGS)],
        test: { name: "oauth", include: ["test/oauth/*.test.ts"], ...shared },
      },
      {
        // Relay mode: every request forwarded to an existing backend (faked), beside the test app.
        plugins: [workerUnderTest("./test/worker.ts", RELAY_TEST_BINDINGS)],
        test: { name: "relay", include: ["test/relay/*.test.ts"], ...shared },
      },
      {
        // The operations console in headless Chromium (npm packages only) against the coordinator
        // running in workerd on 127.0.0.1 — a Node test, not one inside workerd.
        test: { name: "browser", include: ["test/browser/*.test.ts"], environment: "node", testTimeout: 120_000 },
      },
      // Slack's samples, ported (test/ports/): each its own Worker; the starter agent on the agent view.
      ...Object.entries({
        gettingStarted: TEST_BINDINGS,
        starterTemplate: TEST_BINDINGS,
        assistantTemplate: TEST_BINDINGS,
        customStepTemplate: TEST_BINDINGS,
        supportAgent: TEST_BINDINGS,
        starterAgent: STARTER_AGENT_TEST_BINDINGS,
      }).map(([port, bindings]) => ({
        plugins: [workerUnderTest(`./test/ports/${port}.ts`, bindings)],
        test: { name: `port:${port}`, include: [`test/ports/${port}.test.ts`], ...shared },
      })),
      {
        // The shipped demo (src/index.ts), end to end: what `npm start` serves, with the settings it gets.
        plugins: [workerUnderTest("./src/index.ts", { ...devVarsExample(), ...EXAMPLE_TEST_BINDINGS })],
        // The first request loads the Worker's whole module graph (about 5 s here): a file run alone
        // (`npx vitest run test/example/agentKit.test.ts`) pays it inside its first test.
        test: { name: "example", include: ["test/example/*.test.ts"], testTimeout: 15_000, ...shared },
      },
    ],
  },
});
