import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// The manifest of an agent that is not an `app.assistant` (src/app/manifest/agentView.ts, appHome.ts):
// the agent view, the stop button's event and `assistant:write` follow from AGENT_SESSIONS
// (`agentView`), from a listener's `agent` option or from an event only agents get; the App Home's
// tabs follow from the listeners, and what the app declares wins.

const URL_ = "https://agent.example.com";
const noop = async () => {};

// Unset, `agentView` is true (the agent view is every new app's): an app not declared an agent says false.
const PLAIN = { url: URL_, agentView: false };
const botEvents = (app: App, agentView = false) =>
  app.manifest({ url: URL_, agentView }).settings?.event_subscriptions?.bot_events;

describe("an app declared an agent by AGENT_SESSIONS, with no app.assistant", () => {
  const app = new App({ manifest: { name: "Helper" } }).message(noop);
  const manifest = app.manifest({ url: URL_, agentView: true });

  it("declares the agent view, subscribes the stop button's event and asks for assistant:write", () => {
    expect(manifest.features?.agent_view).toEqual({ agent_description: "Helper, in Slack" });
    expect(manifest.settings?.event_subscriptions?.bot_events).toContain("agent_session_stopped");
    expect(manifest.oauth_config?.scopes?.bot).toContain("assistant:write");
    // The agent's conversations happen in the Messages tab.
    expect(manifest.features?.app_home).toEqual({ messages_tab_enabled: true, messages_tab_read_only_enabled: false });
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("is no agent with it false (AGENT_SESSIONS=false): no view, no stop button's event, no assistant:write", () => {
    const plain = app.manifest(PLAIN);
    expect(plain.features?.agent_view).toBeUndefined();
    expect(plain.features?.assistant_view).toBeUndefined();
    expect(plain.settings?.event_subscriptions?.bot_events).not.toContain("agent_session_stopped");
    expect(plain.oauth_config?.scopes?.bot).not.toContain("assistant:write");
  });
});

describe("the agent view by default (agentView unset: Slack gives new apps only the agent view)", () => {
  it("declares a plain app an agent, and puts app.assistant on the agent view, not the assistant view", () => {
    const plain = new App({ manifest: { name: "Helper" } }).event("app_mention", noop).manifest({ url: URL_ });
    expect(plain.features?.agent_view).toEqual({ agent_description: "Helper, in Slack" });
    expect(plain.settings?.event_subscriptions?.bot_events).toEqual(["agent_session_stopped", "app_mention"]);
    const assistant = new App().assistant({ threadStarted: noop, userMessage: noop }, { description: "Answers" });
    expect(assistant.manifest({ url: URL_ }).features).toMatchObject({ agent_view: { agent_description: "Answers" } });
    expect(assistant.manifest({ url: URL_ }).features?.assistant_view).toBeUndefined();
    expect(validate(slackSchema, plain)).toEqual([]);
  });
});

describe("a listener's agent option", () => {
  const answer = { agent: true, run: async ({ sayStream }: { sayStream: () => unknown }) => void sayStream() };

  it("makes an app of one app_mention listener an agent, AGENT_SESSIONS false", () => {
    const manifest = new App({ manifest: { name: "Mentions" } }).event("app_mention", answer).manifest(PLAIN);
    expect(manifest.features?.agent_view).toEqual({ agent_description: "Mentions, in Slack" });
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(["agent_session_stopped", "app_mention"]);
    expect(manifest.oauth_config?.scopes?.bot).toContain("assistant:write");
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("is what does it: the same listener without it is no agent", () => {
    expect(botEvents(new App().event("app_mention", { run: answer.run }))).toEqual(["app_mention"]);
  });

  it("turns the older assistant view of app.assistant into the agent view", () => {
    const assistant = { threadStarted: noop, userMessage: noop };
    const app = new App().assistant(assistant, { description: "Answers questions" });
    expect(app.manifest(PLAIN).features?.assistant_view).toEqual({ assistant_description: "Answers questions" });
    const withAgent = new App().assistant(assistant, { description: "Answers questions" }).event("app_mention", answer);
    expect(withAgent.manifest(PLAIN).features?.agent_view).toEqual({ agent_description: "Answers questions" });
    expect(withAgent.manifest(PLAIN).features?.assistant_view).toBeUndefined();
  });
});

describe("a listener of an event only agents get", () => {
  it.each(["app_context_changed", "agent_session_stopped", "agent_session_title_changed"] as const)(
    "%s makes the app an agent",
    (type) => {
      const manifest = new App().event(type, noop).manifest({ url: URL_ });
      expect(manifest.features?.agent_view).toBeDefined();
      expect(manifest.settings?.event_subscriptions?.bot_events).toEqual([...new Set(["agent_session_stopped", type])].sort());
    },
  );
});

describe("the App Home's tabs", () => {
  it("an app_home_opened listener turns the Home tab on, and nothing else", () => {
    const manifest = new App().event("app_home_opened", noop).manifest(PLAIN);
    expect(manifest.features?.app_home).toEqual({ home_tab_enabled: true });
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(["app_home_opened"]);
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("no listener of the App Home: no app_home entry", () => {
    expect(new App().event("reaction_added", noop).manifest(PLAIN).features?.app_home).toBeUndefined();
  });

  it("what the app declares wins over what the listeners imply", () => {
    const app = new App({
      manifest: { app_home: { home_tab_enabled: false, messages_tab_read_only_enabled: true } },
    })
      .event("app_home_opened", noop)
      .message(noop);
    expect(app.manifest(PLAIN).features?.app_home).toEqual({
      home_tab_enabled: false,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: true,
    });
    // A tab no listener implies can be turned on.
    const declared = new App({ manifest: { app_home: { home_tab_enabled: true } } }).command("/x", noop);
    expect(declared.manifest(PLAIN).features?.app_home).toEqual({ home_tab_enabled: true });
  });
});

describe("the app's manifest.agent", () => {
  const prompts = [{ title: "Summarize", message: "Summarize this channel" }];

  it("declares the app an agent, in its words", () => {
    const app = new App({ manifest: { name: "Notes", agent: { description: "Takes notes", suggested_prompts: prompts } } });
    const manifest = app.event("app_mention", noop).manifest({ url: URL_ });
    expect(manifest.features?.agent_view).toEqual({ agent_description: "Takes notes", suggested_prompts: prompts });
    expect(manifest.settings?.event_subscriptions?.bot_events).toContain("agent_session_stopped");
  });

  it("wins over app.assistant's words", () => {
    const app = new App({ manifest: { agent: { description: "The app's words" } } }).assistant(
      { threadStarted: noop, userMessage: noop },
      { description: "The assistant's words", suggested_prompts: prompts },
    );
    expect(app.manifest({ url: URL_ }).features?.agent_view).toEqual({
      agent_description: "The app's words",
      suggested_prompts: prompts,
    });
  });
});

describe("app.assistant's titleChanged", () => {
  const assistant = { threadStarted: noop, userMessage: noop };

  it("subscribes to agent_session_title_changed, on the agent view even where AGENT_SESSIONS is false", () => {
    const manifest = new App().assistant({ ...assistant, titleChanged: noop }, { description: "Answers" }).manifest(PLAIN);
    expect(manifest.settings?.event_subscriptions?.bot_events).toContain("agent_session_title_changed");
    expect(manifest.features?.agent_view).toEqual({ agent_description: "Answers" });
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("is what does it: an assistant without it is not subscribed", () => {
    const events = new App().assistant(assistant).manifest({ url: URL_ }).settings?.event_subscriptions?.bot_events;
    expect(events).not.toContain("agent_session_title_changed");
  });
});
