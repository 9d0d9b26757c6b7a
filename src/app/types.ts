import type { Inbound } from "../inbound/types";

/** A side effect the shard performs after the ack, at least once. Plain JSON: it is stored in the outbox. */
export type Effect =
  /** A Slack Web API call (`chat.postMessage`, `reactions.add`, …) with the workspace's bot token. */
  | { type: "slack.api"; method: string; body: Record<string, unknown> }
  /** A POST to an interaction's or slash command's `response_url`. */
  | { type: "response_url"; url: string; body: Record<string, unknown> };

export interface PlannedEffect {
  /** Unique within one delivery; with its dedupe key it forms the outbox idempotency key. */
  name: string;
  effect: Effect;
}

/** The synchronous body Slack allows in the ack (a command's ephemeral text, a view's response_action). */
export type AckBody = Record<string, unknown>;

/** What an app makes of one inbound delivery. Computed synchronously, without I/O. */
export type Plan =
  | { ignore: string }
  | { effects: PlannedEffect[]; ackBody?: AckBody };

/**
 * The contract between the coordinator and the user's app. `plan` must be pure and fast:
 * it runs at the edge (to skip the shard for ignored deliveries) and again inside the
 * shard's ingest transaction, which is the authority.
 */
export interface SlackApp {
  plan(inbound: Inbound): Plan;
}
