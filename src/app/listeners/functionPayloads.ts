import type { FunctionExecutedEvent as SlackFunctionExecutedEvent } from "@slack/types";
import type { EventEnvelope } from "./payloads";

/**
 * What a custom workflow step's listeners receive (`app.function`, and `app.action` / `app.view`
 * on the step's own messages and modals), after @slack/types and Bolt's names.
 */

/** The step's input values, by input parameter name, as Slack sends them (`event.inputs`, `function_data.inputs`). */
export type FunctionInputs = SlackFunctionExecutedEvent["inputs"];

/**
 * `function_executed`, as a listener sees it: Slack's event without its `bot_access_token`, which
 * is sealed when the delivery is recorded and reaches the run only as its `client`'s token.
 */
export type FunctionExecutedEvent = Omit<SlackFunctionExecutedEvent, "bot_access_token">;

/** The Events API envelope around a `function_executed` event. */
export type FunctionExecutedBody = EventEnvelope<FunctionExecutedEvent>;

/** `function_data` of an interaction that comes from a step's message or modal. */
export interface FunctionData {
  execution_id: string;
  function: { callback_id: string; [field: string]: unknown };
  inputs: FunctionInputs;
  [field: string]: unknown;
}

/** Bolt's `complete({ outputs })`: the output values, by output parameter name. */
export interface FunctionCompleteArguments {
  outputs?: Record<string, unknown>;
}

/** Bolt's `fail({ error })`: what the workflow shows as the step's error. */
export interface FunctionFailArguments {
  error: string;
}

/**
 * A run that belongs to a function execution: `complete` (`functions.completeSuccess`) and
 * `fail` (`functions.completeError`) for it, with the function's token. Durable: the first of
 * them a run calls is sent until Slack takes it and is never sent again by that run, even when
 * the run is retried; later calls in the same run do nothing.
 */
export interface FunctionCompletion {
  complete(args?: FunctionCompleteArguments): Promise<void>;
  fail(args: FunctionFailArguments): Promise<void>;
}
