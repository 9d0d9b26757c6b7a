import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { AppManifestDeclaration, ManifestOptions } from "../../src/app/manifest";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// Slack's starter agent (slack-samples/bolt-js-starter-agent, openai-agents-sdk/, at fe9f306) registers
// `app.event("app_home_opened")`, `app.event("app_mention")` and `app.event("message")` (streaming
// with `sayStream` and `setStatus`) and `app.action("feedback")`, and ships a hand-written
// manifest.json on the agent view. The manifest made from a port of those registrations must
// subscribe to everything that one does, and to the stop button's event, which it lacks.

/** Facts of the sample's manifest.json: its App Home, bot events and bot scopes. */
const SAMPLE = {
  app_home: { home_tab_enabled: true, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
  bot_events: ["app_home_opened", "app_mention", "message.channels", "message.groups", "message.im"],
  bot_scopes: [
    "app_mentions:read",
    "channels:history",
    "chat:write",
    "groups:history",
    "im:history",
    "im:read",
    "im:write",
    "reactions:write",
    "reactions:read",
    "users:read",
    "assistant:write",
  ],
};

const URL_ = "https://starter.example.com";
const noop = async () => {};

/** The sample's registrations (listeners/events/index.js, listeners/actions/index.js), bodies aside. */
function starterAgent(agent: boolean): App {
  const declared: AppManifestDeclaration = {
    name: "Starter Agent",
    agent: { description: "Hi, I am an agent built using Bolt for JavaScript.", suggested_prompts: [] },
    // What its handlers call themselves (reactions as a tool, DMs, users): no code reading can know it.
    scopes: ["im:read", "im:write", "reactions:read", "reactions:write", "users:read"],
  };
  return new App({ manifest: declared, ignoreSelf: false })
    .event("app_home_opened", noop)
    .event("app_mention", { agent, run: noop })
    .event("message", { agent, run: noop })
    .action("feedback", noop);
}

describe.each([
  ["declared by AGENT_SESSIONS", starterAgent(false), { agentView: true }],
  ["declared by its listeners' agent option", starterAgent(true), {}],
] as const)("the starter agent's manifest, %s", (_, app, mode: Partial<ManifestOptions>) => {
  const manifest = app.manifest({ url: URL_, ...mode });

  it("is on the agent view, with the sample's App Home: the Home tab for its app_home_opened listener", () => {
    expect(manifest.features?.agent_view).toEqual({
      agent_description: "Hi, I am an agent built using Bolt for JavaScript.",
      suggested_prompts: [],
    });
    expect(manifest.features?.app_home).toEqual(SAMPLE.app_home);
  });

  it("subscribes to every event the sample does, the stop button's, and the group DMs its message listener hears", () => {
    const events = manifest.settings?.event_subscriptions?.bot_events ?? [];
    expect(events).toEqual(expect.arrayContaining(SAMPLE.bot_events));
    expect(events.filter((event) => !SAMPLE.bot_events.includes(event))).toEqual(["agent_session_stopped", "message.mpim"]);
  });

  it("asks for the sample's bot scopes, and the history of group DMs the coordinator looks for its posts in", () => {
    const scopes = manifest.oauth_config?.scopes?.bot ?? [];
    expect(scopes).toEqual([...SAMPLE.bot_scopes, "mpim:history"].sort());
  });

  it("enables interactivity for the feedback buttons, and passes Slack's manifest schema", () => {
    expect(manifest.settings?.interactivity).toEqual({ is_enabled: true, request_url: `${URL_}/slack/interactivity` });
    expect(validate(slackSchema, manifest)).toEqual([]);
  });
});
