import type { Inbound, RawRequest } from "../../inbound/types";
import type { TurnLimit } from "./turnBudget";

/**
 * The side effects a shard performs after the ack, at least once. Plain JSON: each is stored
 * in the outbox. One kind per file in src/effects/ performs it; a new kind adds its shape here,
 * its file, and its line in registry.ts.
 */
export type Effect =
  | SlackApiEffect
  | ResponseUrlEffect
  | RunEffect
  | InstallationEffect
  | RelayEffect
  | AlertEffect
  | FunctionCompleteEffect
  | StreamCloseEffect;

/** A Slack Web API call (`chat.postMessage`, `reactions.add`, …) with the workspace's bot token. */
export interface SlackApiEffect {
  type: "slack.api";
  method: string;
  body: Record<string, unknown>;
  /** Slack's error codes that mean this call's work already holds (a message Slack no longer streams): delivered. */
  alreadyDone?: string[];
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
  /** A `merge` turn: the events of the messages its burst took in after `inbound`'s, as they arrived (parts/turns/mergedTurns.ts). */
  merged?: Record<string, unknown>[];
  /** `app.error`'s run: the listener whose run was finally parked, and why. */
  failure?: RunFailure;
  /** A turn refused by its budget, answered by the listener's own `exceeded` run (the limit it was over). */
  limit?: TurnLimit;
}

/** A listener's run that was finally parked: what `app.error` is told. */
export interface RunFailure {
  listener: string;
  reason: string;
}

/**
 * OAuth mode: what an installation lifecycle event does to the installation store. Planned by
 * the coordinator itself (src/installations/lifecycle.ts), not by apps.
 */
export type InstallationEffect = {
  type: "installation";
  /** The installation: the delivery's workspace. */
  installation: string;
  /** The event's `event_time` (seconds): a lifecycle event older than the latest install is ignored. */
  eventTime?: number;
} & (
  | { action: "uninstall" }
  | { action: "revoke_tokens"; bot: string[]; users: string[] }
  | { action: "team_access"; change: "granted" | "revoked"; teams: string[] }
);

/** Relay mode: the Slack request forwarded to RELAY_URL, re-signed at each attempt. */
export interface RelayEffect {
  type: "relay";
  /** The dedupe key: `x-relay-delivery-id`, the backend's idempotency key. */
  deliveryId: string;
  request: RawRequest;
  /** As Slack sent them (`x-slack-retry-num` / `-reason`). */
  retryNum?: number;
  retryReason?: string;
}

/** An alert to ALERT_WEBHOOK_URL, planned by the watch (docs/guides/operations.md "Alerts"): never a token or a payload. */
export interface AlertEffect {
  type: "alert";
  text: string;
}

/**
 * A custom step's execution completed from outside a run (its run was parked):
 * `functions.completeSuccess` / `functions.completeError` with the function's token.
 */
export interface FunctionCompleteEffect {
  type: "function.complete";
  functionExecutionId: string;
  /** The step's `bot_access_token`, sealed (app/functions/functionToken.ts); absent: the workspace's token. */
  functionToken?: string;
  outcome: { outputs: Record<string, unknown> } | { error: string };
}

/**
 * A parked run's message left streaming, closed at exactly the text its checkpoint shows
 * (`chat.stopStream`; one Slack no longer streams gets that text through `chat.update`) — unless
 * that could take away text the user saw: none checkpointed, or `unconfirmed`, the run's last call
 * to it may have shown more. Then it is left as Slack shows it.
 */
export interface StreamCloseEffect {
  type: "stream.close";
  channel: string;
  ts: string;
  text: string;
  unconfirmed?: boolean;
}
