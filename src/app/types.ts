import type { Inbound } from "../inbound/types";
import type { SlackClient } from "../slack/client";

/** A side effect the shard performs after the ack, at least once. Plain JSON: it is stored in the outbox. */
export type Effect =
  /** A Slack Web API call (`chat.postMessage`, `reactions.add`, …) with the workspace's bot token. */
  | { type: "slack.api"; method: string; body: Record<string, unknown> }
  /** A POST to an interaction's or slash command's `response_url`. */
  | { type: "response_url"; url: string; body: Record<string, unknown> }
  /** A listener's durable `run`, executed with the outbox's retries and step checkpoints. */
  | RunEffect;

export interface RunEffect {
  type: "run";
  /** The listener's name (see App); looked up again when the row is performed. */
  listener: string;
  inbound: Inbound;
}

export interface PlannedEffect {
  /** Unique within one delivery; with its scope's key it forms the outbox idempotency key. */
  name: string;
  effect: Effect;
  /**
   * "delivery" (default): once per dedupe key. "fact": once per message fact (team, channel,
   * ts), so the same message arriving as both `message` and `app_mention` runs once.
   */
  scope?: "delivery" | "fact";
}

/** The synchronous body Slack allows in the ack (a command's ephemeral text, a view's response_action). */
export type AckBody = Record<string, unknown>;

/** What an app makes of one inbound delivery. Computed synchronously, without I/O. */
export type Plan =
  | { ignore: string }
  | { effects: PlannedEffect[]; ackBody?: AckBody };

/** What the shard hands an app to perform one `run` effect. */
export interface RunTools {
  /** Web API client bound to the workspace's bot token; throws SlackApiError on failure. */
  client: SlackClient;
  /** Runs `fn` once per run: a retried run gets the stored result instead of running it again. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** 1 for the first attempt of this run. */
  attempt: number;
  now(): number;
}

/**
 * The contract between the coordinator and the user's app. `plan` must be pure and fast:
 * it runs at the edge (to skip the shard for ignored deliveries) and again inside the
 * shard's ingest transaction, which is the authority. `run` performs a `run` effect after
 * the ack; throwing makes the outbox retry it (or park it, for permanent failures).
 */
export interface SlackApp {
  plan(inbound: Inbound): Plan;
  run?(effect: RunEffect, tools: RunTools): Promise<void>;
}

/** The idempotency key of a planned effect: per delivery, or per message fact when asked and known. */
export function outboxKeyOf(inbound: Inbound, planned: PlannedEffect): string {
  const scope = planned.scope === "fact" && inbound.factKey ? inbound.factKey : inbound.dedupeKey;
  return `${scope}:${planned.name}`;
}
