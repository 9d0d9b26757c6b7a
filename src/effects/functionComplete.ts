import type { FunctionCompleteEffect } from "../app/contract";
import { completeFunction } from "../app/functions";
import { callRateKey } from "../pacing/tiers";
import type { EffectKind } from "./kind";

/**
 * `function.complete`: a custom step's execution completed outside a run (planned when its run is
 * finally parked), with the function's token. Slack's answer classifies it like any call; an
 * execution no longer running (completed or timed out already) counts as delivered.
 */
export const functionComplete: EffectKind<FunctionCompleteEffect> = {
  type: "function.complete",
  async perform(effect, { client }) {
    await completeFunction(client, effect.functionExecutionId, effect.outcome);
  },
  rateKey: (effect) => callRateKey("error" in effect.outcome ? "functions.completeError" : "functions.completeSuccess", {}),
};
