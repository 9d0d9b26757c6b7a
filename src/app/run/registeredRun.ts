import { ListenerGone } from "../../platform/errors";
import type { RunEffect, RunTools } from "../contract";
import { type ErrorHandler, listenerRun, type Registered, type TurnLimits } from "../listeners";
import { withMessages } from "./burstMessages";
import { performRun } from "./performRun";

/** What the app gives a stored run besides its listeners: its turn budgets, and `app.error`'s handler. */
export interface RunOptions {
  limits?: TurnLimits;
  errorHandler?: ErrorHandler;
}

/**
 * A stored run performed by the listener it names among the app's `registered` (`app.run`): matched
 * again against its delivery, a merged burst's `messages` added; a finally parked run's `failure`
 * goes to `app.error`'s handler instead. ListenerGone when no listener of that name matches it any more.
 */
export async function registeredRun(
  effect: RunEffect,
  tools: RunTools,
  registered: readonly Registered[],
  { limits, errorHandler }: RunOptions,
): Promise<void> {
  const { failure, inbound } = effect;
  const listener = registered.find((l) => l.name === (failure?.listener ?? effect.listener));
  const context = withMessages(listener?.match(inbound), effect);
  const matched = context ?? { inbound, body: inbound.payload };
  if (failure) return performRun(tools, matched, { failure, errorHandler });
  if (!listener || !context) throw new ListenerGone(`no listener "${effect.listener}" matches this delivery any more`);
  await performRun(tools, context, { listener: listener.name, run: listenerRun(effect, limits, listener.spec) });
}
