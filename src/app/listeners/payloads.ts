import type {
  AllMessageEvents,
  Block,
  GenericMessageEvent,
  KnownBlock,
  MessageAttachment,
  MessageMetadata,
  OptionGroup,
  PlainTextElement,
  PlainTextOption,
  SlackEvent,
} from "@slack/types";

/**
 * What each listener kind receives, typed after Slack's payloads. Events and Block Kit come from
 * @slack/types; the interactivity bodies (which @slack/types does not cover) are declared here,
 * with the fields Slack documents and an index signature for the ones it adds later.
 */

/** The event of `type`: its member of @slack/types' SlackEvent; a plain user message for `message`. */
export type EventOf<T extends string> = T extends "message"
  ? GenericMessageEvent
  : [Extract<SlackEvent, { type: T }>] extends [never]
    ? { type: T; [field: string]: unknown }
    : Extract<SlackEvent, { type: T }>;

/** Like EventOf, with every message subtype: for listeners that set `subtypes`. */
export type EventWithSubtypesOf<T extends string> = T extends "message" ? AllMessageEvents : EventOf<T>;

/** The Events API envelope (`event_callback`) around one event. */
export interface EventEnvelope<E = SlackEvent> {
  type: "event_callback";
  token: string;
  team_id: string;
  enterprise_id?: string;
  api_app_id: string;
  event: E;
  event_id: string;
  event_time: number;
  is_ext_shared_channel?: boolean;
  authorizations?: { enterprise_id: string | null; team_id: string | null; user_id: string; is_bot: boolean }[];
  [field: string]: unknown;
}

/** A slash command's form fields. */
export interface SlashCommand {
  token: string;
  command: string;
  text: string;
  response_url: string;
  trigger_id: string;
  user_id: string;
  user_name: string;
  team_id: string;
  team_domain: string;
  channel_id: string;
  channel_name: string;
  api_app_id: string;
  enterprise_id?: string;
  enterprise_name?: string;
  is_enterprise_install?: string;
  [field: string]: string | undefined;
}

interface InteractionUser {
  id: string;
  name?: string;
  username?: string;
  team_id?: string;
}

interface InteractionTeam {
  id: string;
  domain: string;
  enterprise_id?: string;
  enterprise_name?: string;
}

/** One element's state in `view.state.values[block_id][action_id]`. */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_option?: { text: PlainTextElement; value: string } | null;
  selected_options?: { text: PlainTextElement; value: string }[];
  selected_date?: string | null;
  selected_time?: string | null;
  selected_user?: string | null;
  selected_users?: string[];
  selected_channel?: string | null;
  selected_conversation?: string | null;
  [field: string]: unknown;
}

/** A view as Slack sends it back: the view that was opened, plus its id, hash and state. */
export interface ViewOutput {
  id: string;
  type: "modal" | "home" | "workflow_step";
  callback_id: string;
  team_id: string;
  app_id: string | null;
  bot_id: string;
  title: PlainTextElement;
  blocks: KnownBlock[];
  state: { values: Record<string, Record<string, ViewStateValue>> };
  hash: string;
  private_metadata: string;
  root_view_id: string | null;
  previous_view_id: string | null;
  external_id?: string;
  [field: string]: unknown;
}

/** The element a block_actions payload reports: a button's `value`, a select's `selected_option`, … */
export interface BlockElementAction extends Omit<ViewStateValue, "value"> {
  action_id: string;
  block_id: string;
  action_ts: string;
  value?: string;
}

/** Bolt's name for a block_actions payload (`app.action<BlockAction>(…)`). */
export type BlockAction = BlockActionsBody;

/** A block_actions payload: a button clicked, a select changed, in a message or a view. */
export interface BlockActionsBody {
  type: "block_actions";
  actions: BlockElementAction[];
  user: InteractionUser;
  team: InteractionTeam | null;
  /** Absent for actions in views. */
  channel?: { id: string; name: string };
  /** The message that holds the element; absent for actions in views. */
  message?: { type: "message"; ts: string; text?: string; user?: string; thread_ts?: string; [field: string]: unknown };
  view?: ViewOutput;
  container: { type: string; channel_id?: string; message_ts?: string; view_id?: string; [field: string]: unknown };
  trigger_id: string;
  response_url?: string;
  api_app_id: string;
  token: string;
  [field: string]: unknown;
}

/** A view_submission or view_closed payload. */
export interface ViewBody {
  type: "view_submission" | "view_closed";
  view: ViewOutput;
  user: InteractionUser;
  team: InteractionTeam | null;
  api_app_id: string;
  token: string;
  trigger_id?: string;
  response_urls?: { block_id: string; action_id: string; channel_id: string; response_url: string }[];
  [field: string]: unknown;
}

/** A global shortcut (`shortcut`) or a message shortcut (`message_action`). */
export interface ShortcutBody {
  type: "shortcut" | "message_action";
  callback_id: string;
  trigger_id: string;
  action_ts: string;
  user: InteractionUser;
  team: InteractionTeam | null;
  token: string;
  /** Message shortcuts only: where it was invoked, on which message. */
  channel?: { id: string; name: string };
  message?: { type: "message"; ts: string; text?: string; user?: string; [field: string]: unknown };
  message_ts?: string;
  response_url?: string;
  [field: string]: unknown;
}

/** An options load (`block_suggestion`) of an external select: `value` is what the user has typed. */
export interface BlockSuggestionBody {
  type: "block_suggestion";
  value: string;
  action_id: string;
  block_id: string;
  user: InteractionUser;
  team: InteractionTeam | null;
  container: { type: string; channel_id?: string; message_ts?: string; view_id?: string; [field: string]: unknown };
  /** The view the select sits in; absent for a select in a message. */
  view?: ViewOutput;
  channel?: { id: string; name: string };
  message?: { type: "message"; ts: string; text?: string; [field: string]: unknown };
  api_app_id: string;
  token: string;
  [field: string]: unknown;
}

/** An options load's ack body, which Slack shows in the menu: options, or options in groups (at most 100 each). */
export type OptionsAckBody = { options: PlainTextOption[] } | { option_groups: (OptionGroup & { options: PlainTextOption[] })[] };

/** What `say` posts: `chat.postMessage`'s arguments without `channel` (the delivery's own). */
export interface SayArguments {
  text?: string;
  /** Block Kit as `@slack/types` types it, as Bolt takes it. */
  blocks?: (KnownBlock | Block)[];
  attachments?: MessageAttachment[];
  thread_ts?: string;
  reply_broadcast?: boolean;
  metadata?: MessageMetadata;
  mrkdwn?: boolean;
  unfurl_links?: boolean;
  unfurl_media?: boolean;
  icon_emoji?: string;
  icon_url?: string;
  username?: string;
  link_names?: boolean;
}

/** What `respond` posts to a response_url. */
export interface RespondArguments extends Omit<SayArguments, "reply_broadcast"> {
  response_type?: "in_channel" | "ephemeral";
  replace_original?: boolean;
  delete_original?: boolean;
}

/** Event types for `app.event`: Slack's, offered by the editor, and any other string. */
export type EventType = SlackEvent["type"] | (string & {});
