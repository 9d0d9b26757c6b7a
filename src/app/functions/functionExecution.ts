import { eventOf } from "../../inbound/eventOf";
import { isObject, optionalString } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";

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
