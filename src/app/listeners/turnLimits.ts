import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { ListenerGone } from "../../platform/errors";
import type { RunEffect, TurnBudget } from "../contract";
import type { ListenerSpec, TurnLimits } from "./listeners";
import { isPersonsMessage } from "./turns";

/** A listener's limits: its own over the app's, field by field (absent: none). */
export function limitsOf(app: TurnLimits | undefined, listener: TurnLimits | undefined): TurnLimits | undefined {
  return app || listener ? { ...app, ...listener } : undefined;
}

/** The budget a listener's run of `inbound` is under: only a person's message under some limit has one. */
export function budgetOf(inbound: Inbound, limits: TurnLimits | undefined): TurnBudget | undefined {
  const { turnsPerUser, turnsPerWorkspace, exceeded } = limits ?? {};
  if ((!turnsPerUser && !turnsPerWorkspace) || !isPersonsMessage(inbound)) return undefined;
  const user = userOf(inbound);
  // A user's budget needs the user; the workspace's does not (its refusal then has no one to tell).
  const perUser = user && turnsPerUser ? { perUser: turnsPerUser } : undefined;
  if (!perUser && !turnsPerWorkspace) return undefined;
  return {
    ...(user ? { user } : {}),
    ...perUser,
    ...(turnsPerWorkspace ? { perWorkspace: turnsPerWorkspace } : {}),
    ...(exceeded ? { ownAnswer: true } : {}),
  };
}

/**
 * What a listener's run effect performs: its `run` — or, for a turn refused by its budget (`effect.limit`),
 * the listener's own answer to it (`limits.exceeded`, else the app's), given the limit; never the listener.
 */
export function listenerRun(
  effect: RunEffect,
  app: TurnLimits | undefined,
  listener: ListenerSpec,
): NonNullable<ListenerSpec["run"]> {
  const { limit } = effect;
  if (!limit && listener.run) return listener.run;
  const exceeded = limitsOf(app, listener.limits)?.exceeded;
  if (!limit || !exceeded) throw new ListenerGone(limit ? "no `exceeded` answers this refused turn any more" : "no run");
  return (args) => exceeded({ ...args, limit });
}
