import { eventOf } from "../../inbound/eventOf";
import { isObject } from "../../inbound/fields";
import type { Match } from "../listeners";
import { type Matcher, matches } from "../listeners";
import { functionExecutionOf } from "./functionExecution";

/** `function_executed` events of the app's custom function `callbackId` (a workflow step). */
export function functionMatch(callbackId: Matcher): Match {
  return (inbound) => {
    const event = eventOf(inbound);
    const fn = event && inbound.type === "function_executed" && isObject(event.function) ? event.function : undefined;
    const execution = fn && matches(callbackId, fn.callback_id) ? functionExecutionOf(inbound) : undefined;
    return event && execution ? { inbound, body: inbound.payload, event, inputs: execution.inputs } : undefined;
  };
}
