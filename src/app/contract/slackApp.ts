import type { Inbound } from "../../inbound/types";
import type { SlackWebClient } from "../../slack/client";
import type { AppManifest, ManifestOptions } from "../manifest";
import type { Effect, RunEffect } from "./effects";
import type { StreamTools } from "./streamTools";
import type { ThreadContextStore } from "./threadContexts";
import type { TurnBudget } from "./turnBudget";
import type { WaitLedger } from "./waitTools";

export type { Effect, ResponseUrlEffect, RunEffect, RunFailure, SlackApiEffect } from "./effects";

export interface PlannedEffect {
  /** Unique within one delivery; with its scope's key it forms the outbox idempotency key. */
  name: string;
  effect: Effect;
  /**
   * "delivery" (default): once per dedupe key. "fact": once per message fact (team, channel,
   * ts), so the same message arriving as both `message` and `app_mention` runs once.
   */
  scope?: "delivery" | "fact";
  /**
   * A turn (a run answering a user's message in a conversation): runs one at a time in its
   * conversation, in arrival order (`queue`), or stops the turns there first (`interrupt`): those
   * of the same user, or anyone's (`of: "anyone"`), or queues and takes in the same user's later
   * messages until it starts (`merge`: its row due `quietMs` after the last, parts/turns/mergedTurns.ts).
   * Absent: not a turn, never held back (`parallel`, and every other effect).
   */
  turn?: { conversation: string; policy: "queue" | "interrupt" | "merge"; of?: "anyone"; quietMs?: number };
  /** A person's message under turn budgets (`limits`): counted when first recorded, or refused — not enqueued — when over one. */
  budget?: TurnBudget;
}

/**
 * The Worker's env bindings as a listener sees them unless the app names its own `Env`
 * (`new App<Env>()`, the interface `wrangler types` writes): any key, each `unknown`.
 */
export type EnvBindings = Record<string, unknown>;

/** The synchronous body Slack allows in the ack (a command's ephemeral text, a view's response_action). */
export type AckBody = Record<string, unknown>;

/**
 * The listeners a delivery matched that do not run it, because the event is older than they answer
 * (`maxEventAgeMs`), and its age (ms) when the edge received it: the edge logs a line for each.
 */
export interface LateEvent {
  ageMs: number;
  listeners: { listener: string; maxEventAgeMs: number }[];
}

/**
 * What an app makes of one inbound delivery. Computed synchronously, without I/O. `late`: the
 * matching listeners left out as too old (all of them, when the delivery is ignored as a late event).
 */
export type Plan = ({ ignore: string } | { effects: PlannedEffect[]; ackBody?: AckBody }) & { late?: LateEvent };

/**
 * A run's checkpoint, `step(name, fn)`: `fn` runs until it succeeds once; its result (JSON) is
 * stored on the run's outbox row, and a retried run gets the stored result back instead of
 * running `fn` again. The one signature the app API, the run effect and the checkpoints share.
 */
export type Step = <T>(name: string, fn: () => T | Promise<T>) => Promise<T>;

/** A run's status: its text ("is thinking…"; empty clears it), or with the loading messages Slack rotates through. */
export type StatusUpdate = string | { status: string; loading_messages?: string[] };

/** What a run gets to follow its user (app/run/runStatus.ts): the stop button's `signal` and `setStatus`. */
export interface RunControls {
  /** Aborted when the user stops the conversation (agent_session_stopped); Slack calls are refused from then on. */
  signal: AbortSignal;
  setStatus(status: StatusUpdate): Promise<void>;
}

/** What the shard hands an app to perform one `run` effect; `Env`: the app's type of the Worker's env. */
export interface RunTools<Env = EnvBindings> {
  /** Web API client bound to the workspace's credentials and to this delivery's handles. */
  client: SlackWebClient;
  /** Runs `fn` once per run: a retried run gets the stored result instead of running it again. */
  step: Step;
  /** 1 for the first attempt of this run. */
  attempt: number;
  /** The Worker's env bindings, handed to the run as `env`. */
  env?: Env;
  /** The run's outbox idempotency key, for its log lines. */
  key?: string;
  /** Where `sayStream()` keeps its checkpoints (on the run's row) and Slack's stream limits. */
  streams?: StreamTools;
  /** The shard's store of assistant threads' contexts (`getThreadContext` / `saveThreadContext`). */
  threadContexts?: ThreadContextStore;
  /** AGENT_SESSIONS: the app is an agent (Slack's agent view), its threads agent sessions (an assistant's `setTitle` renames the session). */
  agentSessions?: boolean;
  /** The run's stop `signal` and `setStatus`, for its arguments. */
  controls?: RunControls;
  /** The installing user's token, when the workspace's install granted user scopes: `context.userToken`. */
  userToken?: string;
  /** Where the run's durable waits for a person are kept (`waitForAction`). */
  waits?: WaitLedger;
  /**
   * The attempt's tools as the run's code gets them (app/run/guardedTools.ts): what ends the
   * attempt — a wait, a sleep, the stop button, a failure the outbox retries — never reaches the
   * code's `catch`. Set by the app for each attempt; the kinds built on listeners guard their own tools with it.
   */
  guarded?: <T extends object>(tools: T) => T;
}

/**
 * Whether a run's user is told of its failures, and in what words (`SlackApp.failureNotices`):
 * once its first attempt failed and it is retried (`retrying`), and once it is finally parked
 * (`failed`); an empty text is not posted, an absent one is the coordinator's (RUN_RETRYING_TEXT,
 * RUN_PARKED_TEXT). `runs`: `"agents"` (default) tells only an agent's runs (app/agent/runNotices.ts:
 * an assistant thread's, a user's message in the app's DM, with AGENT_SESSIONS every user's message;
 * `App` adds its `agent: true` listeners'), `"all"` every run, `"none"` none.
 */
export interface FailureNotices {
  runs?: "agents" | "all" | "none";
  retrying?: string;
  failed?: string;
}

/**
 * The contract between the coordinator and the user's app. `plan` must be pure and fast:
 * it runs at the edge (to skip the shard for ignored deliveries) and again inside the
 * shard's ingest transaction, which is the authority. `run` performs a `run` effect after
 * the ack; what it throws decides whether the outbox retries or parks it (platform/errors.ts).
 */
export interface SlackApp<Env = EnvBindings> {
  plan(inbound: Inbound): Plan;
  run?(effect: RunEffect, tools: RunTools<Env>): Promise<void>;
  /**
   * Follow-ups of a `run` finally parked with `reason` (`app.error`, a custom step's
   * `completeError`): recorded in the parking's transaction, keyed by the parked row and each
   * name, delivered at least once; planned once per row, never for a follow-up. Pure, no I/O.
   */
  parked?(effect: RunEffect, reason: string): PlannedEffect[];
  /** Whether and how the user of `effect`'s run is told of its failures; absent: an agent's runs are, in the coordinator's words. Pure. */
  failureNotices?(effect: RunEffect): FailureNotices;
  /**
   * An options load whose listener reads before it acks (Bolt's `async ({ ack }) => …`): its
   * answer, at the edge, nothing recorded — undefined at once when no such listener takes it
   * (then `plan` does), else what the listener acked (undefined: it returned without acking).
   */
  loadOptions?(inbound: Inbound, world: OptionsLoadWorld<Env>): Promise<AckBody | undefined> | undefined;
  /** The Slack app manifest the app's registrations need (`GET /admin/manifest`, the `manifest` command). */
  manifest?(options: ManifestOptions): AppManifest;
  /** The optional scopes (`bot_optional`) the listener named `listener` needs that are not in `granted`: its run is then skipped. Pure. */
  ungrantedScopes?(listener: string, granted: readonly string[]): string[];
  /** The registered listeners a given manifest leaves unreachable (named once at start: `createCoordinator({ manifest })`). */
  unsubscribed?(manifest: AppManifest): string[];
}

/** What an options load's listener may use at the edge: the Worker's env, and a signal aborted when the answer is due. */
export interface OptionsLoadWorld<Env = EnvBindings> {
  env: Env;
  signal: AbortSignal;
}
