import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// The manifest made from an app's registrations (src/app/manifest/appManifest.ts) for the two
// surfaces the demo does not register (test/example/manifest.test.ts): an external select's options
// load URL (`app.options`) and shortcuts (`app.shortcut`), global and message, as declared.

const URL_ = "https://coordinator.example.com";
const INTERACTIVITY = `${URL_}/slack/interactivity`;

const noop = async () => {};
const pickEnv = {
  ack: () => ({ options: [{ text: { type: "plain_text" as const, text: "production" }, value: "production" }] }),
};

describe("the manifest of an app with options loads and shortcuts", () => {
  const app = new App({ manifest: { name: "Deployer" } })
    .options("pick_env", pickEnv)
    .shortcut("new_deploy", { name: "New deploy", description: "Start a deploy from anywhere" }, noop)
    .shortcut("deploy_this", { name: "Deploy this", description: "Deploy the commit in this message", type: "message" }, noop)
    .shortcut("rollback", noop)
    // A pattern names no callback_id Slack could list: it adds interactivity, no shortcut.
    .shortcut(/^legacy_/, noop);
  const manifest = app.manifest({ url: URL_ });

  it("sends options loads to the interactivity URL (message_menu_options_url)", () => {
    expect(manifest.settings?.interactivity).toEqual({
      is_enabled: true,
      request_url: INTERACTIVITY,
      message_menu_options_url: INTERACTIVITY,
    });
  });

  it("lists each shortcut in features.shortcuts with its declared name, description and type", () => {
    expect(manifest.features?.shortcuts).toEqual([
      { name: "New deploy", type: "global", callback_id: "new_deploy", description: "Start a deploy from anywhere" },
      { name: "Deploy this", type: "message", callback_id: "deploy_this", description: "Deploy the commit in this message" },
      // Undeclared: the callback id names and describes it, and it is global.
      { name: "rollback", type: "global", callback_id: "rollback", description: "rollback" },
    ]);
    // Shortcuts need the `commands` scope.
    expect(manifest.oauth_config?.scopes?.bot).toContain("commands");
  });

  it("passes Slack's manifest schema (slackapi/manifest-schema, vendored)", () => {
    expect(validate(slackSchema, manifest)).toEqual([]);
  });

  it("has no options load URL and no shortcuts when nothing registers them", () => {
    const plain = new App().action("approve", noop).manifest({ url: URL_ });
    expect(plain.settings?.interactivity).toEqual({ is_enabled: true, request_url: INTERACTIVITY });
    expect(plain.features?.shortcuts).toBeUndefined();
    expect(validate(slackSchema, plain)).toEqual([]);
  });
});
