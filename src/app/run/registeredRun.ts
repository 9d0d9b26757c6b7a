import { ListenerGone } from "../../platform/errors";
import type { RunEffect, RunTools } from "../contract";
import { type ErrorHandler, listenerRun, type PlanOptions, type Registered } from "../listeners";
import { withMessages } from "./burstMessages";
import { performRun } from "./performRun";

/**
 * `App.run`: a `run` effect performed by the registered listener it names, or a parked run's by
 * `app.error`'s handler; ListenerGone when no listener of that name matches the delivery any more.
 */
export async function runRegistered(
  listeners: readonly Registered[],
  filters: PlanOptions,
  errorHandler: ErrorHandler | undefined,
  effect: RunEffect,
  tools: RunTools,
): Promise<void> {
  const { failure, inbound } = effect;
  const listener = listeners.find((l) => l.name === (failure?.listener ?? effect.listener));
  const context = withMessages(listener?.match(inbound), effect);
  const matched = context ?? { inbound, body: inbound.payload };
  if (failure) return performRun(tools, matched, { failure, errorHandler });
  if (!listener || !context) throw new ListenerGone(`no listener "${effect.listener}" matches this delivery any more`);
  await performRun(tools, context, { listener: listener.name, run: listenerRun(effect, filters.limits, listener.spec) });
}
