/**
 * `search(query, options)`'s arguments and answer, typed after Slack's `assistant.search.context`
 * (the method's reference: https://docs.slack.dev/reference/methods/assistant.search.context —
 * its arguments as slack-ruby/slack-api-ref's methods/assistant/assistant.search.context.json
 * mirrors them; the answer as @slack/web-api's AssistantSearchContextResponse, generated from
 * Slack's own samples). Slack's names, so its reference reads for them. Every field is optional.
 */

/** "Mix and match channel types … any combination of `public_channel`, `private_channel`, `mpim`, `im`" (default public_channel). */
export type SearchChannelType = "public_channel" | "private_channel" | "mpim" | "im";

/** "Content types to include … any combination of `messages`, `files`, `channels`, `users`" (default messages). */
export type SearchContentType = "messages" | "files" | "channels" | "users";

/** The method's arguments besides `query` and `action_token` (which the run passes itself). */
export interface SearchOptions {
  channel_types?: readonly SearchChannelType[];
  content_types?: readonly SearchContentType[];
  /** UNIX timestamp (seconds): only results before it. */
  before?: number;
  /** UNIX timestamp (seconds): only results after it. */
  after?: number;
  /** The `next_cursor` of an earlier answer: its next page. */
  cursor?: string;
  /** "Number of results to return, up to a max of 20. Defaults to 20." */
  limit?: number;
  /** "Whether the results should include bots." */
  include_bots?: boolean;
  /** Messages around each result (`context_messages`); false unless told. */
  include_context_messages?: boolean;
  /** "Context channel ID to support scoping the search when applicable." */
  context_channel_id?: string;
  /** `score` (default) or `timestamp`, `desc` (default) or `asc`. */
  sort?: "score" | "timestamp";
  sort_dir?: "asc" | "desc";
  /** Keyword search only. */
  disable_semantic_search?: boolean;
  include_archived_channels?: boolean;
  include_message_blocks?: boolean;
  highlight?: boolean;
  /** `modifier:value` pairs (`has:pin before:yesterday`); for now they affect term clauses only. */
  modifiers?: string;
  /** Search terms every result must match (conjunctive normal form). */
  term_clauses?: readonly string[];
  include_deleted_users?: boolean;
}

/** A message found (`results.messages[]`). */
export interface SearchMessage {
  author_name?: string;
  author_user_id?: string;
  team_id?: string;
  channel_id?: string;
  channel_name?: string;
  message_ts?: string;
  thread_ts?: string;
  content?: string;
  is_author_bot?: boolean;
  permalink?: string;
  blocks?: unknown[];
  context_messages?: { before?: SearchContextMessage[]; after?: SearchContextMessage[] };
}

/** A message around a result (`include_context_messages`). */
export interface SearchContextMessage {
  text?: string;
  ts?: string;
  user_id?: string;
  blocks?: unknown[];
}

/** A file found (`results.files[]`). */
export interface SearchFile {
  file_id?: string;
  title?: string;
  file_type?: string;
  author_name?: string;
  author_user_id?: string;
  uploader_user_id?: string;
  team_id?: string;
  content?: string;
  permalink?: string;
  date_created?: number;
  date_updated?: number;
}

/** A channel found (`results.channels[]`). */
export interface SearchChannel {
  name?: string;
  purpose?: string;
  topic?: string;
  creator_name?: string;
  creator_user_id?: string;
  team_id?: string;
  permalink?: string;
  date_created?: number;
  date_updated?: number;
}

/** A user found (`results.users[]`). */
export interface SearchUser {
  user_id?: string;
  name?: string;
  real_name?: string;
  team_id?: string;
  content?: string;
  permalink?: string;
}

/** What `search()` answers: Slack's `results`, and the cursor of the next page (`response_metadata.next_cursor`) when there is one. */
export interface SearchAnswer {
  results: { messages?: SearchMessage[]; files?: SearchFile[]; channels?: SearchChannel[]; users?: SearchUser[] };
  next_cursor?: string;
}

/** A run's real-time search: `assistant.search.context` with the message's `action_token`, recorded as a step. */
export type Search = (query: string, options?: SearchOptions) => Promise<SearchAnswer>;
