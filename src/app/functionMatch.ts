import { isObject, optionalString } from "../inbound/fields";
import type { Inbound } from "../inbound/types";
import { type Matcher, matches } from "./listeners";
import { eventOf, type Match } from "./matchers";

type Json = Record<string, unknown>;

/** The function execution a delivery belongs to: its id and the step's input values. */
export interface FunctionExecution {
  executionId: string;
  inputs: Json;
}

/**
 * The execution of a `function_executed` event, or of an interaction on a step's message or
 * modal (`function_data`); undefined for any other delivery.
 */
export function functionExecutionOf(inbound: Inbound): FunctionExecution | undefined {
  const event = eventOf(inbound);
  const data =
    inbound.kind === "interaction" && isObject(inbound.payload.function_data) ? inbound.payload.function_data : undefined;
  const executionId = optionalString(event ? event.function_execution_id : data?.execution_id);
  if (!executionId || (event && inbound.type !== "function_executed")) return undefined;
  const inputs = event ? event.inputs : data?.inputs;
  return { executionId, inputs: isObject(inputs) ? inputs : {} };
}

/** `function_executed` events of the app's custom function `callbackId` (a workflow step). */
export function functionMatch(callbackId: Matcher): Match {
  return (inbound) => {
    const event = eventOf(inbound);
    const fn = event && inbound.type === "function_executed" && isObject(event.function) ? event.function : undefined;
    const execution = fn && matches(callbackId, fn.callback_id) ? functionExecutionOf(inbound) : undefined;
    return event && execution ? { inbound, body: inbound.payload, event, inputs: execution.inputs } : undefined;
  };
}
