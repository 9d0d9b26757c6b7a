import type { SlackWebClient } from "../../slack/client";
import type { EntityDetails } from "../../slack/workObjects";
import type { AckBody, BudgetWindows, EnvBindings, RunTools, StatusUpdate, Step, TurnLimit } from "../contract";
import type { Search } from "../search";
import type { ChatStreamer, SayStreamOptions } from "../streams";
import type { DurableTimers, DurableWaits } from "../waits";
import type { FailureNoticesOption } from "./failureNoticesOption";
import type { FunctionCompletion, FunctionInputs } from "./functionPayloads";
import type { ActionArgs, EventArgs, FunctionArgs, ListenerContext, ViewArgs } from "./listenerArgs";
import type { EventOf, RespondArguments, SayArguments } from "./payloads";
import type { TurnPolicy } from "./turns";

/** Bolt's `context` in a run: who the delivery is for, Slack's retry headers, a message pattern's match. */
export interface RunContext {
  teamId?: string;
  enterpriseId?: string;
  /** This app's bot user, from the envelope's `authorizations` (events only). */
  botUserId?: string;
  /**
   * The acting user, as Bolt sets it: an event's `user` (a `message_changed`'s edited message's
   * author, an assistant thread's `user_id`), an interaction's `user.id`, a command's `user_id`.
   */
  userId?: string;
  /**
   * The installing user's token (OAuth mode, an install that granted user scopes): pass it as
   * `token` to act as that user (`client.search.messages({ token: context.userToken, query })`).
   * Sealed at rest and rotated like the bot's token; undefined in single-workspace mode.
   */
  userToken?: string;
  /** `X-Slack-Retry-Num` of the request that was recorded (Slack's retry, not the run's attempt). */
  retryNum?: number;
  retryReason?: string;
  /** `app.message(RegExp)`: the pattern's match of the message text. */
  matches?: RegExpMatchArray;
}

/**
 * Bolt's `logger`: the coordinator's JSON log lines, each with the delivery's keys. It takes what
 * Bolt's takes — `logger.error(err)`, `logger.info("sent", { ts })`, `logger.warn("in", 3, "s")`:
 * strings and numbers make the message, an object's fields the line's, an error is `error`.
 */
export interface RunLogger {
  debug(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
}

/**
 * What a run adds for a function execution: `complete` and `fail` in `app.function`; in
 * `app.action` / `app.view` when the interaction comes from a step's message or modal (as Bolt).
 */
type FunctionTools<C> = [C] extends [FunctionArgs]
  ? KindTools["function"]
  : [C] extends [ActionArgs | ViewArgs]
    ? Partial<FunctionCompletion> & { inputs?: FunctionInputs }
    : unknown;

/** Work Objects' `entity_details_requested` (`app.entityDetails`, or `app.event` of it): the flexpane's answer. */
export interface EntityDetailsTools {
  /** `entity.presentDetails` on the event's `trigger_id` (valid 3 s: the run's immediate attempt), once per run (a step). */
  presentDetails(details: EntityDetails): Promise<void>;
}

/** What a run adds for `entity_details_requested`. */
type EntityTools<C> = [C] extends [EventArgs<EventOf<"entity_details_requested">>] ? KindTools["entityDetails"] : unknown;

/**
 * The tools a listener kind adds to its runs, by kind — each given to the kind's runs by a type
 * above, and built by `KIND_TOOLS` in app/run/runArgs.ts: a kind named here without its builder there does not compile.
 */
export interface KindTools {
  function: FunctionCompletion;
  entityDetails: EntityDetailsTools;
}

/** Arguments of `ack`: synchronous, pure, inside the ingest transaction. No I/O. */
export type AckArgs<C = ListenerContext> = C;

/** `client.chatStream(args)`'s arguments, as Bolt 5's: where to stream, and the streamer's options. */
export type ChatStreamArguments = SayStreamOptions & { channel: string; thread_ts: string };

/** A run's Web API client: every method, and Bolt 5's `chatStream` (the durable `sayStream`, app/run/chatStream.ts). */
export type RunClient = SlackWebClient & { chatStream(args: ChatStreamArguments): ChatStreamer };

/**
 * The only body `ack` takes in a run, so that `ack(body)` there does not compile and its error names
 * the fix: Slack was answered when the delivery was recorded (JavaScript callers get HandlerMisuse).
 */
export type AckBodyInRun = "ack(body) in run comes too late: answer with a body from the ack phase: { ack: (…) => body, run }";

/** Arguments of `run`: durable, after the ack, retried by the outbox; `env` typed as the app's `Env`. */
export type RunArgs<C = ListenerContext, Env = EnvBindings> = C & {
  client: RunClient;
  /**
   * Checkpoint: `fn` runs until it succeeds once; its result is stored in the shard and a
   * retried run gets the stored result back without running `fn` again. Results must be JSON.
   */
  step: Step;
  /** POSTs to the delivery's `response_url` (commands and interactivity). Valid 30 minutes, 5 uses. */
  respond(message: string | RespondArguments): Promise<void>;
  /** `chat.postMessage` to the channel the delivery came from. */
  say(message: string | SayArguments): Promise<{ ts: string; channel: string }>;
  /**
   * A streamed reply in the delivery's thread (`chat.startStream` / `appendStream` / `stopStream`),
   * checkpointed: a retried run continues or replaces it, and Slack's limits are handled.
   */
  sayStream(options?: SayStreamOptions): ChatStreamer;
  /**
   * Real-time search (`assistant.search.context`) with the `action_token` of the person's message
   * that started the run, recorded as a step. Throws SearchRefused when there is none, or Slack refuses it.
   */
  search: Search;
  /** 1 on the first attempt of this run, 2 on its first retry, … */
  attempt: number;
  /** Aborted when the user stops the conversation (the agent session's stop button); Slack calls are refused from then on. */
  signal: AbortSignal;
  /** The thread's status (`assistant.threads.setStatus`), sent again before Slack's 2 minutes while the run works, cleared when it ends. */
  setStatus(status: StatusUpdate): Promise<void>;
  /** Bolt's context: `teamId`, `enterpriseId`, `botUserId`, `retryNum`, `retryReason`, `matches`. */
  context: RunContext;
  /** JSON log lines with this delivery's dedupe key, outbox key and listener. */
  logger: RunLogger;
  /** The Worker's env bindings (KV, D1, vars, secrets, …), typed by `new App<Env>()`. */
  env: Env;
  /** For Bolt code: `ack()` does nothing (Slack was acked when the delivery was recorded); a body does not compile. */
  ack(body?: AckBodyInRun): Promise<void>;
} & DurableTimers &
  DurableWaits &
  FunctionTools<C> &
  EntityTools<C>;

// biome-ignore lint/suspicious/noConfusingVoidType: an `ack` that returns nothing is the common case, and must type-check as such.
export type AckResult = AckBody | string | void;

/** The arguments of a listener's own answer to a refused turn: a run's, and the budget it was over. */
export type ExceededArgs<C = ListenerContext, Env = EnvBindings> = RunArgs<C, Env> & { limit: TurnLimit };

/**
 * Turn budgets (`limits` on `new App`, a listener, `app.assistant`): how many turns — a person's
 * message or mention the listener runs for (turnLimits.ts) — a user, and the whole workspace, may start
 * per UTC minute and per UTC day. Over one, the turn is not run: the user gets an ephemeral saying
 * the limit and when it resets, or `exceeded` runs instead (durably, as a run) to answer in the app's words.
 */
export interface TurnLimits<C = ListenerContext, Env = EnvBindings> {
  turnsPerUser?: BudgetWindows;
  turnsPerWorkspace?: BudgetWindows;
  exceeded?: (args: ExceededArgs<C, Env>) => void | Promise<void>;
}

export interface ListenerSpec<C = ListenerContext, Env = EnvBindings> {
  /** Stable name, part of the outbox key of this listener's runs. Defaults to kind and constraint. */
  name?: string;
  ack?: (args: AckArgs<C>) => AckResult;
  /** `tools`: what the shard handed this run, for the kinds built on listeners (app.assistant). */
  run?: (args: RunArgs<C, Env>, tools?: RunTools<Env>) => void | Promise<void>;
  /** "fact": run at most once per message (team, channel, ts), even if it arrives as several events. */
  dedupe?: "delivery" | "fact";
  /** Message subtypes this listener also wants, besides plain messages (`["message_changed"]`, or `"all"`). Default: none. */
  subtypes?: readonly string[] | "all";
  /** An extra, pure condition on the delivery (e.g. "only messages that mention the bot"). */
  when?: (args: AckArgs<C>) => boolean;
  /** Also receive messages posted by other bots; this app's own, too, with `new App({ ignoreSelf: false })` (never otherwise). */
  includeBots?: boolean;
  /**
   * A person's message in a thread while an earlier one's run still answers there: `queue` (the
   * app's default unless `new App({ turns })`) waits for it to finish, `interrupt` stops it, `parallel` runs at once,
   * `merge` answers the same user's quick messages once (`messages`) and otherwise queues.
   */
  turns?: TurnPolicy;
  /** Turn budgets for this listener's turns, over the app's field by field (`new App({ limits })`, turnLimits.ts). */
  limits?: TurnLimits<C, Env>;
  /**
   * The oldest Events API event (ms from Slack's `event_time` to its arrival) this listener
   * answers; an older one is acked and logged, not run. Default: the app's (`new App({ maxEventAgeMs })`,
   * an hour); `Infinity` answers events of any age. Commands and interactivity are never late.
   */
  maxEventAgeMs?: number;
  /**
   * This listener answers as an agent (`sayStream`, `setStatus`, the stop button): the app's
   * manifest declares the agent view, `agent_session_stopped` and `assistant:write` (app/manifest/agentView.ts).
   */
  agent?: boolean;
  /**
   * `"optional"`: the scopes it needs (its events') are Slack's optional scopes in the app's
   * manifest (`bot_optional`), and it runs only in workspaces that granted them (skipped, logged once, elsewhere).
   */
  scopes?: "optional";
  /**
   * Whether its run's user is told, in the run's thread, that the answer is delayed (after its first
   * failed attempt) and that it failed (once parked): `true`, `false`, or `{ runs?, retrying?, failed? }`.
   * Default: the app's (`new App({ failureNotices })`), on for agents' runs.
   */
  failureNotices?: FailureNoticesOption;
}

/** A listener is its `run` alone, or a spec with `ack`, `run` and options. */
export type Listener<C = ListenerContext, Env = EnvBindings> = ListenerSpec<C, Env>["run"] | ListenerSpec<C, Env>;

/** A listener's spec, whichever way it was given (its `run` alone, or the spec). */
export function specOf(listener: Listener<never, never>): ListenerSpec {
  const spec = typeof listener === "function" ? { run: listener } : (listener ?? {});
  // Each kind's match() builds exactly the context its registration overload promised the listener.
  return spec as ListenerSpec;
}

export type Matcher = string | RegExp;

export function matches(matcher: Matcher | undefined, value: unknown): boolean {
  if (matcher === undefined) return true;
  if (typeof value !== "string") return false;
  return typeof matcher === "string" ? matcher === value : matcher.test(value);
}

export function describeMatcher(matcher: Matcher | undefined): string {
  return matcher === undefined ? "*" : String(matcher);
}
