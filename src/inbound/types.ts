/** The three Slack surfaces that reach the Request URL. */
export type InboundKind = "event" | "command" | "interaction";

/**
 * One normalized shape for every accepted Slack delivery, whatever surface it came from.
 * It crosses the Worker → shard RPC boundary, so it must stay structured-clonable and
 * only ever gain optional fields (old shards keep running during gradual deploys).
 */
export interface Inbound {
  kind: InboundKind;
  /** Race-free dedupe key: `event_id` for events, `trigger_id` for commands and interactivity. */
  dedupeKey: string;
  /** Workspace that owns the delivery: the enterprise id for org-wide installs, else the team id. */
  workspace: string;
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall: boolean;
  /** Event type (`app_mention`), command name (`/echo`) or interaction type (`block_actions`). */
  type: string;
  /** Same underlying message seen through several events: `team:channel:ts`. */
  factKey?: string;
  /**
   * The thread it belongs to, when it has one: every delivery of one is recorded by one shard (docs/guides/sharding.md).
   * One parsed by an earlier version (a rolling deploy, a row recorded before) may lack its `team`.
   */
  conversation?: Conversation;
  /** `X-Slack-Retry-Num` / `-Reason`, kept for observability only — never used for dedupe. */
  retryNum?: number;
  retryReason?: string;
  /**
   * The time its shard is chosen by (ms since the epoch; docs/guides/sharding.md), the same on every
   * retry: the message's `ts` for a message fact (so twins meet), else the envelope's `event_time`.
   * Absent for commands and interactivity, which follow the layout in force when they arrive.
   */
  routedAt?: number;
  /** When the edge received it (ms since the epoch): trigger_id and response_url expire from here. */
  receivedAt?: number;
  /** The parsed Slack payload: event envelope, command form fields or interaction payload. */
  payload: Record<string, unknown>;
  /** Relay mode only: the request as Slack sent it, to forward byte for byte. */
  raw?: RawRequest;
  /** A custom step's `bot_access_token`, sealed by the shard (never the plain token; app/functions/functionToken.ts). */
  functionToken?: string;
}

/**
 * A conversation: a thread in a channel of a team (a message outside a thread is the root of its
 * own). The one shape of "where a delivery's thread is", located by inbound/conversation.ts.
 */
export interface Conversation {
  /** `team:channel:thread_ts` — for a thread's root message the same string as its factKey. */
  key: string;
  /** The delivery's team, else (an org-wide install's event naming none) its workspace. */
  team: string;
  channel: string;
  /** The root message's `ts`. */
  threadTs: string;
}

/** A request body as received: UTF-8 text, or base64 when its bytes are not valid UTF-8. */
export interface RawRequest {
  body: string;
  encoding?: "base64";
  contentType: string;
  /**
   * The body (as `encoding` says) is sealed under TOKEN_ENCRYPTION_KEY: it carried a custom
   * step's token, which is never stored in plain text (app/functions/functionToken.ts); opened only to be relayed.
   */
  sealed?: true;
  /** The request's W3C `traceparent`, when it had a valid one: relay mode continues its trace. */
  traceparent?: string;
}

/** What the edge makes of a signed request before anything is stored. */
export type Parsed =
  | { kind: "inbound"; inbound: Inbound }
  | { kind: "url_verification"; challenge: string }
  | { kind: "ssl_check" }
  | { kind: "ignored"; reason: string }
  /** Slack stopped sending the workspace's events for the minute starting at `minute` (seconds). */
  | { kind: "app_rate_limited"; workspace: string; minute: number };
