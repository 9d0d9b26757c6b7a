import type { Inbound } from "../inbound/types";
import type { SlackWebClient } from "../slack/client";
import type { FunctionCompletion, FunctionExecutedBody, FunctionExecutedEvent, FunctionInputs } from "./functionPayloads";
import type {
  BlockActionsBody,
  BlockElementAction,
  BlockSuggestionBody,
  EventEnvelope,
  RespondArguments,
  SayArguments,
  ShortcutBody,
  SlashCommand,
  ViewBody,
  ViewOutput,
} from "./payloads";
import type { RunContext, RunLogger } from "./runContext";
import type { ChatStreamer, SayStreamOptions } from "./sayStream";
import type { AckBody, RunTools, StatusUpdate, Step } from "./types";

type Json = Record<string, unknown>;

/** What every listener phase sees of the delivery, untyped: the shape the App matches against. */
export interface ListenerContext {
  inbound: Inbound;
  /** The raw payload: event envelope, command fields or interaction payload. */
  body: Json;
  event?: Json;
  /** `app.message`: the event again, under Bolt's name. */
  message?: Json;
  command?: Record<string, string>;
  action?: Json;
  view?: Json;
  shortcut?: Json;
  /** `app.options`: the options load again, under Bolt's name. */
  options?: Json;
  /** `app.function`: the step's input values. */
  inputs?: Json;
  /** `app.message(RegExp)`: the match, decided when the delivery is planned and again in its run. */
  context?: { matches?: RegExpMatchArray };
}

/** A listener of `app.message(RegExp)`: `context.matches` is always there. */
export interface Matched {
  context: { matches: RegExpMatchArray };
}

/** Events: the envelope and its `event`. */
export interface EventArgs<E> {
  inbound: Inbound;
  body: EventEnvelope<E>;
  event: E;
}

/** `app.message`: Bolt's `message`, the same event as `event`. */
export type MessageArgs<E> = EventArgs<E> & { message: E };

/** Slash commands: the form fields, as both `body` and `command`. */
export interface CommandArgs {
  inbound: Inbound;
  body: SlashCommand;
  command: SlashCommand;
}

/** block_actions: the payload and the element that matched. */
export interface ActionArgs {
  inbound: Inbound;
  body: BlockActionsBody;
  action: BlockElementAction;
}

/** view_submission / view_closed: the payload and its view. */
export interface ViewArgs {
  inbound: Inbound;
  body: ViewBody;
  view: ViewOutput;
}

/** shortcut / message_action: the payload, as both `body` and `shortcut`. */
export interface ShortcutArgs {
  inbound: Inbound;
  body: ShortcutBody;
  shortcut: ShortcutBody;
}

/** function_executed (a custom workflow step): the envelope, its event and the step's `inputs`. */
export interface FunctionArgs {
  inbound: Inbound;
  body: FunctionExecutedBody;
  event: FunctionExecutedEvent;
  inputs: FunctionInputs;
}

/**
 * What a run adds for a function execution: `complete` and `fail` in `app.function`; in
 * `app.action` / `app.view` when the interaction comes from a step's message or modal (as Bolt).
 */
type FunctionTools<C> = [C] extends [FunctionArgs]
  ? FunctionCompletion
  : [C] extends [ActionArgs | ViewArgs]
    ? Partial<FunctionCompletion> & { inputs?: FunctionInputs }
    : unknown;

/** block_suggestion (an options load): the payload, as both `body` and `options`. */
export interface OptionsArgs {
  inbound: Inbound;
  body: BlockSuggestionBody;
  options: BlockSuggestionBody;
}

/** Arguments of `ack`: synchronous, pure, inside the ingest transaction. No I/O. */
export type AckArgs<C = ListenerContext> = C;

/** Arguments of `run`: durable, after the ack, retried by the outbox. */
export type RunArgs<C = ListenerContext> = C & {
  client: SlackWebClient;
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
   * A streamed answer in the delivery's thread (`chat.startStream` / `appendStream` / `stopStream`),
   * checkpointed: a retried run continues or replaces it, and Slack's limits are handled.
   */
  sayStream(options?: SayStreamOptions): ChatStreamer;
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
  /** The Worker's env bindings (KV, D1, vars, …). */
  env: Record<string, unknown>;
  /** For Bolt code: `ack()` does nothing (Slack was acked when the delivery was recorded); `ack(body)` is refused. */
  ack(body?: AckBody | string): Promise<void>;
} & FunctionTools<C>;

// biome-ignore lint/suspicious/noConfusingVoidType: an `ack` that returns nothing is the common case, and must type-check as such.
export type AckResult = AckBody | string | void;

export interface ListenerSpec<C = ListenerContext> {
  /** Stable name, part of the outbox key of this listener's runs. Defaults to kind and constraint. */
  name?: string;
  ack?: (args: AckArgs<C>) => AckResult;
  /** `tools`: what the shard handed this run, for the kinds built on listeners (app.assistant). */
  run?: (args: RunArgs<C>, tools?: RunTools) => void | Promise<void>;
  /** "fact": run at most once per message (team, channel, ts), even if it arrives as several events. */
  dedupe?: "delivery" | "fact";
  /** Message subtypes this listener also wants, besides plain messages (`["message_changed"]`, or `"all"`). Default: none. */
  subtypes?: readonly string[] | "all";
  /** An extra, pure condition on the delivery (e.g. "only messages that mention the bot"). */
  when?: (args: AckArgs<C>) => boolean;
  /** Also receive messages posted by other bots. Messages from this app's own bot user never reach listeners. */
  includeBots?: boolean;
}

/** A listener is its `run` alone, or a spec with `ack`, `run` and options. */
export type Listener<C = ListenerContext> = ListenerSpec<C>["run"] | ListenerSpec<C>;

export type Matcher = string | RegExp;

export function matches(matcher: Matcher | undefined, value: unknown): boolean {
  if (matcher === undefined) return true;
  if (typeof value !== "string") return false;
  return typeof matcher === "string" ? matcher === value : matcher.test(value);
}

export function describeMatcher(matcher: Matcher | undefined): string {
  return matcher === undefined ? "*" : String(matcher);
}
