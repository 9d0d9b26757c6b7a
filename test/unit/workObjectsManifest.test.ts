import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { AppManifest } from "../../src/app/manifest";
import { validate } from "../support/jsonSchema";
import slackSchema from "../support/slackManifestSchema/manifest.schema.2.0.0.json";

// Work Objects in the manifest (src/app/manifest/workObjectFeatures.ts), after Slack's app manifest
// reference (docs.slack.dev/reference/app-manifest: `features.rich_previews.is_active`,
// `.entity_types`; `features.unfurl_domains`) and its Work Objects guide.

const URL_ = "https://objects.example.com";
const noop = async () => {};
const events = (manifest: AppManifest) => manifest.settings?.event_subscriptions?.bot_events ?? [];

/**
 * Slack's JSON schema (vendored 2026-06) does not list `rich_previews` yet, though its reference
 * does: the rest of the manifest is held to the schema.
 */
function validApartFromRichPreviews(manifest: AppManifest): string[] {
  const { rich_previews: _, ...features } = manifest.features ?? {};
  return validate(slackSchema, { ...manifest, features });
}

describe("an app.entityDetails listener in the manifest", () => {
  it("subscribes entity_details_requested and turns Work Object previews on for the declared entity types", () => {
    const manifest = new App().entityDetails(noop, { entity_types: ["slack#/entities/task"] }).manifest({ url: URL_ });
    expect(events(manifest)).toContain("entity_details_requested");
    expect(manifest.features?.rich_previews).toEqual({ is_active: true, entity_types: ["slack#/entities/task"] });
    expect(validApartFromRichPreviews(manifest)).toEqual([]);
  });

  it("without a declaration, previews every entity type Slack supports", () => {
    const manifest = new App().entityDetails(noop).manifest({ url: URL_ });
    expect(manifest.features?.rich_previews).toEqual({
      is_active: true,
      entity_types: [
        "slack#/entities/content_item",
        "slack#/entities/file",
        "slack#/entities/incident",
        "slack#/entities/item",
        "slack#/entities/task",
      ],
    });
  });

  it("Bolt's way, app.event('entity_details_requested'), needs the same", () => {
    const manifest = new App().event("entity_details_requested", noop).manifest({ url: URL_ });
    expect(events(manifest)).toContain("entity_details_requested");
    expect(manifest.features?.rich_previews).toMatchObject({ is_active: true });
  });

  it("is not there when no listener wants it: no event, no previews", () => {
    const manifest = new App().event("app_mention", noop).manifest({ url: URL_ });
    expect(events(manifest)).not.toContain("entity_details_requested");
    expect(manifest.features?.rich_previews).toBeUndefined();
    expect(manifest.features?.unfurl_domains).toBeUndefined();
    expect(manifest.oauth_config?.scopes?.bot).not.toContain("links:write");
  });
});

describe("unfurl domains, for Work Objects unfurled from link_shared", () => {
  const app = new App({ manifest: { unfurl_domains: ["example.com"] } }).event("link_shared", noop);
  const manifest = app.manifest({ url: URL_ });

  it("lists the declared domains, link_shared with links:read, and chat.unfurl's links:write", () => {
    expect(manifest.features?.unfurl_domains).toEqual(["example.com"]);
    expect(events(manifest)).toContain("link_shared");
    expect(manifest.oauth_config?.scopes?.bot).toEqual(expect.arrayContaining(["links:read", "links:write"]));
    expect(validate(slackSchema, manifest)).toEqual([]);
  });
});
