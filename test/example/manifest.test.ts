import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App, type AppManifest, createCoordinator } from "../../src/lib";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { adminGet } from "../support/coordinator";
import { DEMO_MANIFEST, DEMO_URL as URL_ } from "../support/demoManifest";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// The demo's Slack app manifest, made from its registrations (src/example/app.ts, agent.ts) and
// served at GET /admin/manifest — what `npx slack-durable-coordinator manifest --url …` prints.

async function demoManifest(query = `?url=${encodeURIComponent(URL_)}`): Promise<AppManifest> {
  const response = await adminGet(`/admin/manifest${query}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** The demo Worker (src/index.ts) called with `overrides` on its env: settings are parsed per env object. */
async function demoWith(path: string, overrides: Record<string, string>): Promise<Response> {
  const { default: worker } = await import("../../src/index");
  const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  const headers = { authorization: `Bearer ${(env as unknown as CoordinatorEnv).ADMIN_TOKEN}` };
  const request = new Request(`https://coordinator.test${path}`, { headers }) as Parameters<typeof worker.fetch>[0];
  return worker.fetch(request, { ...(env as unknown as CoordinatorEnv), ...overrides }, context);
}

describe("the demo's manifest", () => {
  it("is what its registrations need: events, scopes, commands, the step, the agent view, the URLs", async () => {
    expect(await demoManifest()).toEqual(DEMO_MANIFEST);
  });

  it("passes Slack's manifest schema (slackapi/manifest-schema, vendored)", async () => {
    expect(validate(slackSchema, await demoManifest())).toEqual([]);
    // The checker can fail: a shortcut without its description, an agent view field Slack does not know.
    const broken = structuredClone(DEMO_MANIFEST);
    Object.assign(broken.features, { shortcuts: [{ name: "Count", type: "global", callback_id: "count" }] });
    Object.assign(broken.features.agent_view, { bogus: true });
    expect(validate(slackSchema, broken)).toEqual([
      '/features/shortcuts/0: misses "description"',
      "/features/agent_view/bogus: not allowed",
    ]);
  });

  it("in OAuth mode adds the redirect URL, the install's scopes and the lifecycle events", async () => {
    const response = await demoWith(`/admin/manifest?url=${encodeURIComponent(`${URL_}/`)}`, {
      SLACK_CLIENT_ID: "111.222",
      SLACK_CLIENT_SECRET: "client-secret",
      SLACK_SCOPES: "chat:write,users:read",
      SLACK_USER_SCOPES: "search:read",
    });
    expect(response.status).toBe(200);
    const manifest: AppManifest = await response.json();
    expect(manifest.oauth_config).toEqual({
      redirect_urls: [`${URL_}/slack/oauth_redirect`],
      scopes: { bot: [...DEMO_MANIFEST.oauth_config.scopes.bot, "users:read"].sort(), user: ["search:read"] },
    });
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(
      [...DEMO_MANIFEST.settings.event_subscriptions.bot_events, "app_uninstalled", "tokens_revoked"].sort(),
    );
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("under the older assistant view (AGENT_SESSIONS=false) declares assistant_view, and no stop button event", async () => {
    const response = await demoWith(`/admin/manifest?url=${encodeURIComponent(URL_)}`, { AGENT_SESSIONS: "false" });
    const manifest: AppManifest = await response.json();
    expect(manifest.features?.agent_view).toBeUndefined();
    expect(manifest.features?.assistant_view).toEqual({
      assistant_description: DEMO_MANIFEST.features.agent_view.agent_description,
      suggested_prompts: DEMO_MANIFEST.features.agent_view.suggested_prompts,
    });
    expect(manifest.settings?.event_subscriptions?.bot_events).not.toContain("agent_session_stopped");
  });

  it("needs the admin token and a URL", async () => {
    expect((await adminGet(`/admin/manifest?url=${URL_}`, null)).status).toBe(401);
    expect((await adminGet("/admin/manifest")).status).toBe(400);
    expect((await adminGet("/admin/manifest?url=ftp://x")).status).toBe(400);
  });
});

describe("the manifest of an agent that is not an app.assistant, from the Worker", () => {
  it("follows AGENT_SESSIONS: the agent view, the stop button's event and assistant:write", async () => {
    const app = new App({ manifest: { name: "Mentions" } }).event("app_mention", async () => {});
    const { worker } = createCoordinator({ app });
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    const headers = { authorization: `Bearer ${(env as unknown as CoordinatorEnv).ADMIN_TOKEN}` };
    const ask = async (agentSessions: string): Promise<AppManifest> => {
      const path = `/admin/manifest?url=${encodeURIComponent(URL_)}`;
      const request = new Request(`https://coordinator.test${path}`, { headers }) as Parameters<typeof worker.fetch>[0];
      const response = await worker.fetch(
        request,
        { ...(env as unknown as CoordinatorEnv), AGENT_SESSIONS: agentSessions },
        context,
      );
      expect(response.status).toBe(200);
      return response.json();
    };
    const agent = await ask("true");
    expect(agent.features?.agent_view).toEqual({ agent_description: "Mentions, in Slack" });
    expect(agent.settings?.event_subscriptions?.bot_events).toEqual(["agent_session_stopped", "app_mention"]);
    expect(agent.oauth_config?.scopes?.bot).toContain("assistant:write");
    expect(validate(slackSchema, agent)).toEqual([]);
    const plain = await ask("false");
    expect(plain.features?.agent_view).toBeUndefined();
    expect(plain.settings?.event_subscriptions?.bot_events).toEqual(["app_mention"]);
  });
});

describe("a listener the deployed manifest does not subscribe to", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is named in one log line at start, and only once", async () => {
    const app = new App({ manifest: { name: "Partial" } })
      .event("app_mention", async () => {})
      .event("reaction_added", async () => {})
      .command("/echo", async () => {})
      .command("/deploy", async () => {})
      .action("approve", async () => {});
    // The manifest as deployed: written for an earlier version, before reactions, /deploy and buttons.
    const deployed = new App()
      .event("app_mention", async () => {})
      .command("/echo", async () => {})
      .manifest({ url: URL_ });
    const { worker } = createCoordinator({ app, manifest: deployed });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    for (let i = 0; i < 3; i++)
      await worker.fetch(new Request("https://coordinator.test/healthz"), env as unknown as CoordinatorEnv, context);
    const lines = warn.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "warn",
      msg: "the app's manifest does not subscribe to these listeners: Slack never calls them",
      listeners: "event:reaction_added, command:/deploy, action:approve",
    });
  });

  it("is not logged when the manifest covers every listener", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const app = new App().event("app_mention", async () => {}).action("approve", async () => {});
    const { worker } = createCoordinator({ app, manifest: app.manifest({ url: URL_ }) });
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
    await worker.fetch(new Request("https://coordinator.test/healthz"), env as unknown as CoordinatorEnv, context);
    expect(warn).not.toHaveBeenCalled();
  });
});
