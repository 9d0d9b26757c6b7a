import type { App } from "../../src/app/App";
import { documentedFileEntity } from "./workObjectPayloads";

/**
 * The test app's Work Objects (test/workObjects/): a flexpane opened is answered with Slack's
 * documented file entity for the reference asked about; each link shared is unfurled as one.
 */
export function withWorkObjects(app: App): void {
  app.entityDetails(
    async ({ event, presentDetails }) => {
      await presentDetails({ metadata: documentedFileEntity(event.external_ref?.id ?? "unknown", event.entity_url) });
    },
    { entity_types: ["slack#/entities/file"] },
  );

  app.event("link_shared", async ({ event, client }) => {
    const entities = event.links.map((link) => ({
      ...documentedFileEntity(new URL(link.url).pathname, link.url),
      app_unfurl_url: link.url,
    }));
    await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, metadata: { entities } });
  });
}
