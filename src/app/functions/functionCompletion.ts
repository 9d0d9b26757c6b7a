import type { Inbound } from "../../inbound/types";
import type { SlackWebClient } from "../../slack/client";
import type { FunctionCompleteEffect, PlannedEffect, RunEffect, Step } from "../contract";
import type { FunctionCompletion, FunctionInputs } from "../listeners";
import { functionExecutionOf } from "./functionExecution";

/** What completes an execution: its outputs (`functions.completeSuccess`) or an error (`functions.completeError`). */
export type FunctionOutcome = FunctionCompleteEffect["outcome"];

/**
 * One checkpoint for whichever of complete/fail a run calls first: a retried run finds it done
 * and sends nothing again, and a later call in the same run cannot contradict what Slack was told.
 */
const COMPLETION_STEP = "functions.complete";

/** Tells Slack how the execution ended, with the client's token (the function's, for a step's rows). */
export async function completeFunction(client: SlackWebClient, executionId: string, outcome: FunctionOutcome): Promise<void> {
  if ("error" in outcome)
    await client.call("functions.completeError", { function_execution_id: executionId, error: outcome.error });
  else await client.call("functions.completeSuccess", { function_execution_id: executionId, outputs: outcome.outputs });
}

/**
 * `inputs`, `complete` and `fail` for a run of a delivery that belongs to a function execution
 * (`function_executed`, or an interaction with `function_data`); nothing for any other run.
 */
export function functionCompletion(
  inbound: Inbound,
  client: SlackWebClient,
  step: Step,
): (FunctionCompletion & { inputs: FunctionInputs }) | Record<string, never> {
  const execution = functionExecutionOf(inbound);
  if (!execution) return {};
  const once = (outcome: FunctionOutcome) =>
    step(COMPLETION_STEP, async () => {
      await completeFunction(client, execution.executionId, outcome);
      return null;
    }).then(() => undefined);
  return {
    inputs: execution.inputs,
    complete: ({ outputs = {} } = {}) => once({ outputs }),
    fail: ({ error }) => once({ error: String(error) }),
  };
}

/**
 * What the workflow shows when a step's run is parked. The park reason is an exception's text
 * (a stack position, a backend's error with a key in it): it stays in the operations API, and
 * the workflow's users see only this. A developer's own words go through `fail({ error })`.
 */
export const STEP_PARKED_ERROR = "The step failed. The app's operators can see why.";

/**
 * A parked run of a `function_executed` delivery: `completeError`, so the workflow shows the
 * step failed instead of "In progress" until Slack's timeout; why stays with the parked row.
 */
export function functionParked(effect: RunEffect): PlannedEffect[] {
  const execution = effect.inbound.type === "function_executed" ? functionExecutionOf(effect.inbound) : undefined;
  if (!execution) return [];
  const completion: FunctionCompleteEffect = {
    type: "function.complete",
    functionExecutionId: execution.executionId,
    ...(effect.inbound.functionToken === undefined ? {} : { functionToken: effect.inbound.functionToken }),
    outcome: { error: STEP_PARKED_ERROR },
  };
  return [{ name: "functions.completeError", effect: completion }];
}
