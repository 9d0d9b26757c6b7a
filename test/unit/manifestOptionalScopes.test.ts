import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// Issue 45 point 5: Slack's optional scopes (changelog 2026-03-16, `oauth_config.scopes.bot_optional`)
// marked by the app (`new App({ manifest: { optionalScopes } })`) or by a listener
// (`scopes: "optional"`: the scopes its events need), under the one rule the lookups' history
// scopes follow (src/app/manifest/optionalScopes.ts); and which listeners a workspace's grant skips.

const URL_ = "https://coordinator.example.com";
const HISTORY = ["channels:history", "groups:history", "im:history", "mpim:history"];
const noop = async () => {};
// An app that is not an agent (agentView: false, as AGENT_SESSIONS=false): the agent view's own scopes are not this file's subject.
const scopesOf = (app: App) => app.manifest({ url: URL_, agentView: false }).oauth_config?.scopes;

describe("optional scopes in the manifest", () => {
  it("the app's optionalScopes are listed in bot and marked bot_optional, beside the history scopes; Slack's schema accepts it", () => {
    const app = new App({ manifest: { optionalScopes: ["reactions:write", "users:read"] } }).event("app_mention", noop);
    const scopes = scopesOf(app);
    expect(scopes?.bot).toEqual(["app_mentions:read", "chat:write", ...HISTORY, "reactions:write", "users:read"].sort());
    expect(scopes?.bot_optional).toEqual([...HISTORY, "reactions:write", "users:read"].sort());
    expect(validate(slackSchema, app.manifest({ url: URL_, agentView: false }))).toEqual([]);
  });

  it('a scopes: "optional" listener\'s event scopes are optional; the same scope another listener needs stays required', () => {
    const optional = new App().event("reaction_added", { scopes: "optional", run: noop });
    expect(scopesOf(optional)?.bot).toContain("reactions:read");
    expect(scopesOf(optional)?.bot_optional).toEqual([...HISTORY, "reactions:read"].sort());
    expect(validate(slackSchema, optional.manifest({ url: URL_, agentView: false }))).toEqual([]);
    const both = new App().event("reaction_added", { scopes: "optional", run: noop }).event("reaction_removed", noop);
    expect(scopesOf(both)?.bot).toContain("reactions:read");
    expect(scopesOf(both)?.bot_optional).toEqual(HISTORY);
  });

  it("a scope declared required (manifest.scopes) or needed by the coordinator is never optional", () => {
    const app = new App({ manifest: { scopes: ["users:read"], optionalScopes: ["users:read", "chat:write", "pins:write"] } });
    const scopes = scopesOf(app.command("/deploy", noop));
    expect(scopes?.bot).toEqual(["chat:write", "commands", "pins:write", "users:read"]);
    expect(scopes?.bot_optional).toEqual(["pins:write"]);
  });
});

describe("which listeners a workspace's grant skips", () => {
  const app = new App({ manifest: { optionalScopes: ["users:read"] } })
    .event("reaction_added", { name: "reactions", scopes: "optional", run: noop })
    .event("team_join", { name: "welcome", run: noop })
    .event("app_mention", { name: "mentions", run: noop });

  it("a listener needing an optional scope the workspace did not grant is named with the scopes it lacks", () => {
    expect(app.ungrantedScopes("reactions", ["app_mentions:read", "chat:write"])).toEqual(["reactions:read"]);
    expect(app.ungrantedScopes("welcome", ["app_mentions:read", "chat:write"])).toEqual(["users:read"]);
  });

  it("granted, or needing only required scopes, it runs", () => {
    expect(app.ungrantedScopes("reactions", ["chat:write", "reactions:read"])).toEqual([]);
    // A required scope an older install lacks is not the grant's to skip: its calls say missing_scope.
    expect(app.ungrantedScopes("mentions", ["chat:write"])).toEqual([]);
    expect(app.ungrantedScopes("no such listener", [])).toEqual([]);
  });
});
