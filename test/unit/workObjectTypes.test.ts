import { describe, expectTypeOf, it } from "vitest";
import { App } from "../../src/app/App";
import type { EntityDetails, EntityPresentDetailsArguments, UnfurledEntity } from "../../src/lib";
import { documentedFileEntity, ENTITY_DETAILS_REQUESTED_EXAMPLE } from "../support/workObjectPayloads";

// Compile-time checks (`npm run typecheck`): Work Objects' entity is typed as Slack documents it,
// in a run's `presentDetails` and in the client's `entity.presentDetails` and `chat.unfurl`.
// The listeners are registered, never run.
describe("Work Objects' types", () => {
  const app = new App();

  it("an entityDetails listener gets Slack's event, and presentDetails takes the documented entity", () => {
    app.entityDetails(async ({ event, presentDetails, client }) => {
      expectTypeOf(event.trigger_id).toEqualTypeOf<string>();
      expectTypeOf(event.entity_url).toEqualTypeOf<string>();
      expectTypeOf(event.external_ref).toEqualTypeOf<{ id: string; type?: string } | undefined>();
      await presentDetails({ metadata: documentedFileEntity("123", event.entity_url) });
      await presentDetails({ error: { status: "not_found" } });
      await presentDetails({ user_auth_required: true, user_auth_url: "https://example.com/sign-in" });
      // @ts-expect-error an entity's title is `{ text }`, not a string
      await presentDetails({ metadata: { ...documentedFileEntity("1", "u"), entity_payload: { attributes: { title: "x" } } } });
      const unnamed = { entity_type: "slack#/entities/task", url: "u", entity_payload: { attributes: { title: { text: "t" } } } };
      // @ts-expect-error an entity names its `external_ref`
      await presentDetails({ metadata: unnamed });
      // @ts-expect-error Slack's error statuses only
      await presentDetails({ error: { status: "gone" } });
      // @ts-expect-error the trigger is the event's: presentDetails sets it
      await presentDetails({ trigger_id: "other" });
      // The client's method, typed as Slack's reference: the trigger is required there.
      await client.entity.presentDetails({ trigger_id: event.trigger_id, metadata: documentedFileEntity("1", "u") });
      // @ts-expect-error the client's entity is Slack's too (slack-web-api-client types it `any`)
      await client.entity.presentDetails({ trigger_id: event.trigger_id, metadata: unnamed });
      // @ts-expect-error entity.presentDetails needs the trigger_id
      await client.entity.presentDetails({ metadata: documentedFileEntity("1", "u") });
    });
  });

  it("app.event('entity_details_requested') gets presentDetails too; other events do not", () => {
    app.event("entity_details_requested", async ({ presentDetails }) => {
      expectTypeOf(presentDetails).parameter(0).toEqualTypeOf<EntityDetails>();
    });
    app.event("app_mention", async (args) => {
      // @ts-expect-error only a flexpane's request has a trigger to present on
      args.presentDetails;
    });
  });

  it("chat.unfurl's Work Object metadata: Slack's entities, each with the app_unfurl_url it unfurls", () => {
    app.event("link_shared", async ({ event, client }) => {
      const entity: UnfurledEntity = { ...documentedFileEntity("1", event.links[0]!.url), app_unfurl_url: event.links[0]!.url };
      await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, metadata: { entities: [entity] } });
      await client.chat.unfurl({ unfurl_id: "U1", source: "composer", metadata: { entities: [entity] } });
      const bare = documentedFileEntity("1", "u");
      // @ts-expect-error chat.unfurl's entities need their app_unfurl_url
      await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, metadata: { entities: [bare] } });
    });
    expectTypeOf<EntityPresentDetailsArguments["trigger_id"]>().toEqualTypeOf<string>();
    expectTypeOf(ENTITY_DETAILS_REQUESTED_EXAMPLE.type).toEqualTypeOf<"entity_details_requested">();
  });
});
