import type { EntityMetadata } from "@slack/types";
import { slackId } from "../../src/testing/deliveries";

/**
 * Work Objects' payloads as Slack documents them, each from its page: the envelope's ids and
 * time are the test's own (a fresh workspace, a fresh `event_id`, now), every field of the event
 * is Slack's example as printed.
 */

/** docs.slack.dev/reference/events/entity_details_requested, "Usage info": the event as printed. */
export const ENTITY_DETAILS_REQUESTED_EXAMPLE = {
  type: "entity_details_requested",
  user: "U0123456",
  external_ref: { id: "123", type: "my-type" },
  entity_url: "https://example.com/document/123",
  link: { url: "https://example.com/document/123", domain: "example.com" },
  app_unfurl_url: "https://example.com/document/123?myquery=param",
  event_ts: "123456789.1234566",
  trigger_id: "1234567890123.1234567890123.abcdef01234567890abcdef012345689",
  user_locale: "en-US",
  channel: "C123ABC456",
  message_ts: "1755035323.759739",
  thread_ts: "1755035323.759739",
} as const;

/** docs.slack.dev/reference/events/link_shared: the event as printed (a posted message's links). */
export const LINK_SHARED_EXAMPLE = {
  type: "link_shared",
  channel: "C123ABC456",
  is_bot_user_member: true,
  user: "U123ABC456",
  message_ts: "123456789.9875",
  unfurl_id: "C123456.123456789.987501.1b90fa1278528ce6e2f6c5c2bfa1abc9a41d57d02b29d173f40399c9ffdecf4b",
  thread_ts: "123456621.1855",
  source: "conversations_history",
  links: [
    { domain: "example.com", url: "https://example.com/12345" },
    { domain: "example.com", url: "https://example.com/67890" },
    { domain: "another-example.com", url: "https://yet.another-example.com/v/abcde" },
  ],
} as const;

/**
 * docs.slack.dev/reference/methods/entity.presentDetails, "Usage info": the flexpane metadata as
 * printed (a Miro board as a `slack#/entities/file`), its reference set to the one asked for.
 */
export function documentedFileEntity(externalId: string, url: string): EntityMetadata {
  return {
    entity_type: "slack#/entities/file",
    url,
    external_ref: { id: externalId },
    entity_payload: {
      attributes: { title: { text: "GTM Project Capybara" }, display_type: "Miro Board", product_name: "Miro" },
      fields: {
        created_by: { value: "Platform Integrations", type: "string" },
        preview: {
          alt_text: "Miro Board image",
          image_url: "https://miro.com/app/images/application/icons/XYZ/540x540/board_icon_5.png?etag=XYZ",
        },
        last_modified_by: { value: "Platform Integrations", type: "string" },
        date_created: { value: 1742923321 },
        date_updated: { value: 1742923333 },
        file_size: { value: "NA" },
        mime_type: { value: "Miro" },
      },
      display_order: ["created_by", "last_modified_by", "date_created", "date_updated", "file_size", "mime_type", "preview"],
    },
  };
}

/** An Events API envelope around `event`, for workspace `team`, sent now. */
export function envelopeOf(team: string, event: Record<string, unknown>) {
  return {
    token: "XXYYZZ",
    team_id: team,
    api_app_id: "A123ABC456",
    event,
    type: "event_callback",
    authed_users: ["U123ABC456", "U222222222"],
    event_id: slackId("Ev"),
    event_time: Math.floor(Date.now() / 1000),
  };
}
