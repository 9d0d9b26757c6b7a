import type { ObserveCall } from "../alerts/outcomes";
import type { SlackApp } from "../app/types";
import type { RelaySettings } from "../config";
import type { InstallationsNamespace } from "../env";
import type { BackendAnswer } from "../shard/api";
import type { SlackWebClient } from "../slack/client";
import type { Effect } from "./types";

/** What a shard hands an effect kind to perform one outbox row once. */
export interface EffectContext {
  app: SlackApp;
  /** Bound to the row's workspace (credentials from `authorize`) and to its delivery's handles. */
  client: SlackWebClient;
  /** `step()` for a run: checkpoints on the row, fenced by this attempt's lease. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** Attempts made before this one. */
  attempts: number;
  /** HANDLER_MAX_ATTEMPTS: how often a handler's own bug is retried before the run is parked. */
  handlerMaxAttempts: number;
  /** The installation store (OAuth mode), for the coordinator's own lifecycle effects. */
  installations?: InstallationsNamespace;
  /** Relay mode's settings (RELAY_URL …), or null. */
  relay: RelaySettings | null;
  /** When the row's delivery was recorded (ms since the epoch). */
  recordedAt: number;
  /**
   * Set while the edge waits to ack a command or interaction with the backend's answer (relay
   * mode's first attempt): a relay that succeeds hands the answer here.
   */
  answer?(answer: BackendAnswer): void;
  /** Told how each request to a destination went (alerts); the client reports its own calls. */
  observe: ObserveCall;
  /** ALERT_WEBHOOK_URL, for the coordinator's own alert effects. */
  alertWebhookUrl?: string;
}

/**
 * One kind of effect, as Bolt has one Receiver per transport: how to perform it, and which
 * rate-limit bucket it shares with others. `perform` throws the errors of src/errors.ts, whose
 * class says whether the row is retried or parked; returning means delivered.
 */
export interface EffectKind<E extends Effect = Effect> {
  type: E["type"];
  perform(effect: E, context: EffectContext): Promise<void>;
  /** Slack's rate-limit bucket within a workspace; after a 429 the whole bucket waits. Null: none. */
  rateKey?(effect: E): string | null;
  /** Whether every attempt of this kind posts to the delivery's response_url once (toward its 5 uses). */
  attemptUsesResponseUrl?: boolean;
}
