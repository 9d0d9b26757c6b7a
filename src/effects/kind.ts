import type { Effect, SlackApp, Step, StreamLedger, ThreadContextStore, WaitLedger } from "../app/contract";
import type { Outbound } from "../platform/outboundCalls";
import type { BackendResponses } from "../relay/backendResponses";
import type { CoordinatorEnv } from "../rpc/env";
import type { ObserveCall } from "../rpc/outcomes";
import type { DeliverySettings } from "../settings";
import type { SlackWebClient } from "../slack/client";

/**
 * What a shard delivers with, wired once per shard: each effect kind draws its own dependencies
 * from it (`deps`), so a kind's options are in its own file and nothing threads them row by row.
 */
export interface DeliveryWorld {
  /** A workspace shard, or the watch (which delivers the alerts and relays nothing). */
  role: "workspace" | "watch";
  app: SlackApp;
  env: CoordinatorEnv;
  settings: DeliverySettings;
  /** Relay mode: where a first attempt leaves the backend response for an edge that waits for it. */
  backendResponses: BackendResponses;
  /** A workspace shard's assistant threads' contexts, for its runs (none on the watch). */
  threadContexts?: ThreadContextStore;
}

/** One attempt at one outbox row: only what that attempt knows. */
export interface EffectContext {
  /** Bound to the row's workspace (credentials from `authorize`) and to its delivery's handles. */
  client: SlackWebClient;
  /** `step()` for a run: checkpoints on the row, fenced by this attempt's lease. */
  step: Step;
  /** Attempts made before this one. */
  attempts: number;
  /** When the row's delivery was recorded (ms since the epoch). */
  recordedAt: number;
  /** The row's idempotency key. */
  key: string;
  /** Told how each request to a destination went (alerts); the client reports its own calls. */
  observe: ObserveCall;
  /** The shard's door for a kind's own fetches (relay, alert): counted per invocation, six at a time, timed from when each leaves. */
  outbound: Outbound;
  /** A run's stream checkpoints on its row, fenced by this attempt's lease (which each one extends). */
  streams?: StreamLedger;
  /** A run's durable waits for a person (`waitForAction`), in the shard's `waits` table. */
  waits?: WaitLedger;
  /** Aborted when the user stops the row's conversation (agent_session_stopped); the client then refuses to call. */
  stopped?: AbortSignal;
  /** The installing user's token for the row's workspace, when its install granted user scopes (a run's `context.userToken`). */
  userToken?: () => Promise<string | undefined>;
  /** The bot scopes the row's workspace granted at install (OAuth mode); undefined when unknown. */
  grantedScopes?: () => Promise<readonly string[] | undefined>;
}

/**
 * One kind of effect, as Bolt has one Receiver per transport, each taking its own options: the
 * dependencies it draws from the delivery world, how to perform it, and which rate key
 * it shares with others. `perform` throws the errors of platform/errors.ts, whose class says whether
 * the row is retried or parked; returning means delivered.
 */
export interface EffectKind<E extends Effect = Effect, D = undefined> {
  type: E["type"];
  /**
   * Its dependencies, drawn once when a shard's delivery is wired (never per row). A bad setting
   * of its own throws InvalidSetting there, which pauses delivery like any delivery setting.
   */
  deps?(world: DeliveryWorld): D;
  perform(effect: E, context: EffectContext, deps: D): Promise<void>;
  /** Slack's rate key within a workspace; after a 429 every row under it waits. Null: none. */
  rateKey?(effect: E): string | null;
  /** Whether every attempt of this kind posts to the delivery's response_url once (toward its 5 uses). */
  attemptUsesResponseUrl?: boolean;
}
