import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// The history scopes the lookups of uncertain posts need (src/app/manifest/scopes.ts LOOKUP_SCOPES):
// asked for only by an app that hears from conversations, and as Slack's optional scopes
// (`oauth_config.scopes.bot_optional`) unless its own events need them.

const URL_ = "https://coordinator.example.com";
const HISTORY = ["channels:history", "groups:history", "im:history", "mpim:history"];
const noop = async () => {};
// Apps not declared agents (`agentView: false`, an existing app's AGENT_SESSIONS=false): an agent's view asks for more.
const PLAIN = { url: URL_, agentView: false };
const scopesOf = (app: App) => app.manifest(PLAIN).oauth_config?.scopes;

describe("the manifest's history scopes follow the uncertain-post lookups", () => {
  it("a commands-only app gets no history scope, optional or not", () => {
    const app = new App().command("/deploy", noop).action("approve", noop);
    const scopes = scopesOf(app);
    expect(scopes?.bot).toEqual(["chat:write", "commands"]);
    expect(scopes?.bot_optional).toBeUndefined();
    expect(validate(slackSchema, app.manifest(PLAIN))).toEqual([]);
  });

  it("an app that hears from conversations gets the four, listed in bot and marked optional", () => {
    const app = new App().event("app_mention", noop);
    const scopes = scopesOf(app);
    expect(scopes?.bot).toEqual(["app_mentions:read", "chat:write", ...HISTORY].sort());
    expect(scopes?.bot_optional).toEqual(HISTORY);
    expect(validate(slackSchema, app.manifest(PLAIN))).toEqual([]);
  });

  it("the history scopes its own events need stay required; only the rest are optional", () => {
    const scopes = scopesOf(new App().message("hello", noop));
    expect(scopes?.bot).toEqual(expect.arrayContaining(HISTORY));
    expect(scopes?.bot_optional).toBeUndefined();
    const declared = scopesOf(new App({ manifest: { scopes: ["im:history"] } }).event("app_mention", noop));
    expect(declared?.bot_optional).toEqual(["channels:history", "groups:history", "mpim:history"]);
  });
});
