import type { EntityActionButton, EntityMetadata } from "@slack/types";

/**
 * Work Objects' Web API arguments, typed after Slack's reference — `entity.presentDetails`
 * (docs.slack.dev/reference/methods/entity.presentDetails) and `chat.unfurl`'s `metadata`
 * (docs.slack.dev/messaging/work-objects) — with @slack/types' `EntityMetadata` for the entity
 * itself (`entity_type`, `entity_payload.attributes.title`, `fields`, `external_ref`, `url`).
 */

/** Why an entity could not be presented: the `error.status` values Slack accepts. */
export type EntityErrorStatus =
  | "restricted"
  | "internal_error"
  | "not_found"
  | "custom"
  | "custom_partial_view"
  | "timeout"
  | "edit_error";

/** `entity.presentDetails`'s `error`: the flexpane shows it instead of the entity. */
export interface EntityPresentDetailsError {
  status: EntityErrorStatus;
  /** With `status: "custom"`: the message and title shown. */
  custom_message?: string;
  custom_title?: string;
  message_format?: "markdown";
  actions?: EntityActionButton[];
}

/** What `entity.presentDetails` sends for the flexpane, besides the trigger it answers. */
export interface EntityDetails {
  /** The entity as the flexpane shows it (per user: what the unfurl must not show everyone). */
  metadata?: EntityMetadata;
  /** The user must sign in to your service first (`user_auth_url` is then required). */
  user_auth_required?: boolean;
  user_auth_url?: string;
  error?: EntityPresentDetailsError;
}

/** `entity.presentDetails`: the details answered on the `trigger_id` of `entity_details_requested`. */
export interface EntityPresentDetailsArguments extends EntityDetails {
  trigger_id: string;
  /** A token other than the workspace's bot token (Bolt's `token:`). */
  token?: string;
}

/** An entity `chat.unfurl` attaches: `app_unfurl_url`, the exact URL posted in the message, is required there. */
export type UnfurledEntity = EntityMetadata & { app_unfurl_url: string };

/** `chat.unfurl`'s `metadata`: the Work Objects that unfurl the message's links. */
export interface WorkObjectUnfurls {
  entities: UnfurledEntity[];
}
