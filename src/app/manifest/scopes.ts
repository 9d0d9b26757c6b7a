/**
 * Which bot scopes Slack asks for what, as data (Slack's reference: each event's and method's
 * "Required scopes", docs.slack.dev/reference). An event or method not listed needs none here;
 * what a handler calls itself is declared beside the app (`new App({ manifest: { scopes } })`).
 */

/** The bot events a `message` listener needs: one per conversation kind. */
export const MESSAGE_EVENTS = ["message.channels", "message.groups", "message.im", "message.mpim"] as const;

/** Bot scopes of each bot event (Slack's events reference, "Required scopes"). */
export const EVENT_SCOPES: Readonly<Record<string, readonly string[]>> = {
  app_mention: ["app_mentions:read"],
  "message.channels": ["channels:history"],
  "message.groups": ["groups:history"],
  "message.im": ["im:history"],
  "message.mpim": ["mpim:history"],
  reaction_added: ["reactions:read"],
  reaction_removed: ["reactions:read"],
  pin_added: ["pins:read"],
  pin_removed: ["pins:read"],
  channel_created: ["channels:read"],
  channel_rename: ["channels:read"],
  channel_archive: ["channels:read"],
  member_joined_channel: ["channels:read", "groups:read"],
  member_left_channel: ["channels:read", "groups:read"],
  team_join: ["users:read"],
  user_change: ["users:read"],
  emoji_changed: ["emoji:read"],
  file_shared: ["files:read"],
  link_shared: ["links:read"],
};

/** A slash command's and a shortcut's scope. */
export const COMMANDS_SCOPE = "commands";

/**
 * What the coordinator itself calls for every app: `say`, `respond`'s fallbacks, streams
 * (`chat.startStream` / `appendStream` / `stopStream`), `chat.update` of a closed message and
 * `setStatus` (`assistant.threads.setStatus`) need `chat:write`.
 */
export const COORDINATOR_SCOPES = ["chat:write"] as const;

/**
 * An attempt that may already have posted looks for its post in the conversation
 * (`conversations.replies` / `history`), which needs the conversation kind's history scope. Asked
 * for only by an app that hears from conversations (an event listener, a view), and as optional
 * (`bot_optional`) unless its events need them: without one, such a post is sent again (at least
 * once, logged once per workspace), never lost.
 */
export const LOOKUP_SCOPES = ["channels:history", "groups:history", "im:history", "mpim:history"] as const;

/**
 * Either view (`app.assistant`, an agent): the view itself, suggested prompts and thread titles
 * (`assistant.threads.setTitle`; under the agent view `agents.sessions.rename`) need
 * `assistant:write`, which Slack adds to an app declared an agent (its Agent sessions guide).
 */
export const ASSISTANT_SCOPES = ["assistant:write"] as const;

/** Events the coordinator plans for itself: the stop button under the agent view, an installation's lifecycle in OAuth mode. */
export const AGENT_VIEW_EVENTS = ["agent_session_stopped"] as const;

/**
 * Events Slack sends only to an app declared an agent (its events reference): agent sessions are
 * an agent's alone, and `app_context_changed` needs `agent_view`. A listener of one makes the app an agent.
 */
export const AGENT_ONLY_EVENTS: readonly string[] = [
  "agent_session_stopped",
  "agent_session_title_changed",
  "app_context_changed",
];
export const OAUTH_EVENTS = ["app_uninstalled", "tokens_revoked"] as const;

/** The entity types Slack supports (`slack#/entities/…`): a Work Objects app without a declaration gets them all. */
export const ENTITY_TYPES = [
  "slack#/entities/content_item",
  "slack#/entities/file",
  "slack#/entities/incident",
  "slack#/entities/item",
  "slack#/entities/task",
] as const;

export type EntityTypeName = (typeof ENTITY_TYPES)[number];

/** The event Slack sends when a user opens a Work Object's flexpane. */
export const ENTITY_DETAILS_REQUESTED = "entity_details_requested";

/** `chat.unfurl`'s scope (Slack's method reference), for an app that declares unfurl domains. */
export const UNFURL_SCOPES = ["links:write"] as const;
