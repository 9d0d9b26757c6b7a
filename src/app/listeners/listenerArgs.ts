import type { Inbound } from "../../inbound/types";
import type { FunctionExecutedBody, FunctionExecutedEvent, FunctionInputs } from "./functionPayloads";
import type {
  BlockActionsBody,
  BlockElementAction,
  BlockSuggestionBody,
  EventEnvelope,
  ShortcutBody,
  SlashCommand,
  ViewBody,
  ViewOutput,
} from "./payloads";

type Json = Record<string, unknown>;

/** Each listener kind's view of a delivery: what its `ack`, `when` and `run` see of it. */

/** What every listener phase sees of the delivery, untyped: the shape the App matches against. */
export interface ListenerContext {
  inbound: Inbound;
  /** The raw payload: event envelope, command fields or interaction payload. */
  body: Json;
  event?: Json;
  /** A message's or mention's run: the messages it answers, oldest first (burstMessages.ts). */
  messages?: Json[];
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
  /**
   * In a run of a message or mention: the messages it answers, oldest first — under `turns: "merge"`
   * the user's burst (`event` is its first), else `[event]`. Absent in `ack` and `when`.
   */
  messages?: E[];
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

/** block_suggestion (an options load): the payload, as both `body` and `options`. */
export interface OptionsArgs {
  inbound: Inbound;
  body: BlockSuggestionBody;
  options: BlockSuggestionBody;
}
