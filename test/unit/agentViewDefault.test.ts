import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
// @ts-expect-error: the starter's writer is plain JavaScript, without types.
import { initProject } from "../../bin/initProject.mjs";
import { manifestRoute } from "../../src/admin/manifestRoute";
import { App } from "../../src/app/App";
import type { AppManifest } from "../../src/app/manifest";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { deliverySettings } from "../../src/settings";
import { devVarsExample } from "../support/devVarsExample";

// Issue 45 point 1: Slack gives new apps only the agent view, so the Worker's AGENT_SESSIONS is on
// unless set, and `GET /admin/manifest` (what the `manifest` command prints) declares `agent_view`;
// AGENT_SESSIONS=false keeps an existing app on the assistant view. A project `init` writes (the
// starter, examples/consumer) is asked for its manifest with the settings it ships with.

// The starter imports the package; here its App is the repository's, and createCoordinator hands the app back.
vi.mock("slack-durable-coordinator", () => ({
  App,
  createCoordinator: ({ app }: { app: App }) => ({ worker: { app }, Shard: class {} }),
}));

const URL_ = "https://starter.example.com";
const root = fileURLToPath(new URL("../..", import.meta.url));

async function manifestOf(app: App, settings: Record<string, string>): Promise<AppManifest> {
  const request = new Request(`http://127.0.0.1/admin/manifest?url=${encodeURIComponent(URL_)}`);
  const answer = await manifestRoute(app)(request as never, settings as unknown as CoordinatorEnv);
  return (await answer.json()) as AppManifest;
}

const noop = async () => {};

describe("the Worker's default: the agent view", () => {
  it("AGENT_SESSIONS unset is on; false is off", () => {
    expect(deliverySettings({}).agent.sessions).toBe(true);
    expect(deliverySettings({ AGENT_SESSIONS: "false" }).agent.sessions).toBe(false);
  });

  it("the manifest route declares agent_view unless AGENT_SESSIONS=false keeps app.assistant on the assistant view", async () => {
    const app = new App().assistant({ threadStarted: noop, userMessage: noop }, { description: "Answers" });
    const fresh = await manifestOf(app, {});
    expect(fresh.features?.agent_view).toEqual({ agent_description: "Answers" });
    expect(fresh.features?.assistant_view).toBeUndefined();
    expect(fresh.settings?.event_subscriptions?.bot_events).toContain("agent_session_stopped");
    const existing = await manifestOf(app, { AGENT_SESSIONS: "false" });
    expect(existing.features?.assistant_view).toEqual({ assistant_description: "Answers" });
    expect(existing.features?.agent_view).toBeUndefined();
    expect(existing.settings?.event_subscriptions?.bot_events).not.toContain("agent_session_stopped");
  });
});

describe("a fresh init project", () => {
  // The package as npm lays it out (its package.json and dist/starter, from examples/consumer), and `init bot` run from it.
  const work = mkdtempSync(join(tmpdir(), "init-agent-view-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const pkg = join(work, "pkg");
  mkdirSync(pkg);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "slack-durable-coordinator", version: "0.1.0" }));
  cpSync(join(root, "examples/consumer"), join(pkg, "dist/starter"), {
    recursive: true,
    filter: (path) => !/[/\\](node_modules|\.wrangler|\.dev\.vars)$/.test(path),
  });
  const dir = join(work, "bot");
  vi.spyOn(console, "log").mockImplementation(() => {});
  initProject([dir], pkg);
  vi.mocked(console.log).mockRestore();

  it("sets no AGENT_SESSIONS, and its manifest, with the settings it ships with, has agent_view", async () => {
    const settings = devVarsExample(new URL(`file://${join(dir, ".dev.vars.example")}`));
    expect(settings.AGENT_SESSIONS).toBeUndefined();
    expect(readFileSync(join(dir, "wrangler.toml"), "utf8")).not.toMatch(/AGENT_SESSIONS/);
    const project = await import(/* @vite-ignore */ join(dir, "src/index.ts"));
    const manifest = await manifestOf(project.default.app, settings);
    expect(manifest.features?.agent_view).toEqual({ agent_description: "Slack app, in Slack" });
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(["agent_session_stopped", "app_mention"]);
  });
});
