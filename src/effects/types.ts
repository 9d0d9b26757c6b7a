import type { Inbound } from "../inbound/types";

/**
 * The side effects a shard performs after the ack, at least once. Plain JSON: each is stored
 * in the outbox. One kind per file in src/effects/ performs it; a new kind adds its shape here,
 * its file, and its line in registry.ts.
 */
export type Effect = SlackApiEffect | ResponseUrlEffect | RunEffect;

/** A Slack Web API call (`chat.postMessage`, `reactions.add`, …) with the workspace's bot token. */
export interface SlackApiEffect {
  type: "slack.api";
  method: string;
  body: Record<string, unknown>;
}

/** A POST to an interaction's or slash command's `response_url`. */
export interface ResponseUrlEffect {
  type: "response_url";
  url: string;
  body: Record<string, unknown>;
}

/** A listener's durable `run`, executed with the outbox's retries and step checkpoints. */
export interface RunEffect {
  type: "run";
  /** The listener's name (see App); looked up again when the row is performed. */
  listener: string;
  inbound: Inbound;
}
