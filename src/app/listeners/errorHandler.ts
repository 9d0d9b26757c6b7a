import { ListenerGone } from "../../platform/errors";
import type { PlannedEffect, RunEffect, RunFailure } from "../contract";
import type { RunArgs } from "./listeners";

/** The name `app.error`'s runs are performed, logged and parked under. */
export const ERROR_HANDLER = "app.error";

/**
 * What `app.error` is given for a run that was finally parked: an Error whose message is the
 * park reason, the listener's name, and the run arguments of that listener's delivery (`body`,
 * `context`, `client`, `logger`, `env`, `say`, `respond`, `step`, …).
 */
export type ErrorArgs = RunArgs & { error: ParkedError; listener: string };

export type ErrorHandler = (args: ErrorArgs) => void | Promise<void>;

/** A listener's run, finally parked: the reason as the message, and the class it threw when the reason names it. */
export class ParkedError extends Error {
  override name = "ParkedError";
  /** The class of what was thrown (`TypeError`, `HandlerMisuse`), when the park reason says. */
  readonly originalName?: string;

  constructor(
    readonly listener: string,
    readonly reason: string,
  ) {
    super(reason);
    // The reason's shapes are effects/run.ts's: `handler "…" threw TypeError: …`, or `handler "…": …` for a misuse.
    this.originalName =
      /threw ([A-Za-z_$][\w$]*):/.exec(reason)?.[1] ?? (/^handler "[^"]*": /.test(reason) ? "HandlerMisuse" : undefined);
  }
}

/**
 * `app.error`'s follow-up of a parked run: a run of its own after the parking, retried and parked
 * like any run, once per parked row; a parked `app.error` run has no follow-up (outbox.parked.park).
 */
export function errorFollowUps(effect: RunEffect, reason: string): PlannedEffect[] {
  const failure: RunFailure = { listener: effect.listener, reason };
  return [
    { name: `parked:${ERROR_HANDLER}`, effect: { type: "run", listener: ERROR_HANDLER, inbound: effect.inbound, failure } },
  ];
}

/** Performs `app.error`'s run with the failed listener's run arguments. */
export async function runErrorHandler(handler: ErrorHandler | undefined, failure: RunFailure, args: RunArgs): Promise<void> {
  if (!handler) throw new ListenerGone("no app.error handler any more");
  await handler({ ...args, error: new ParkedError(failure.listener, failure.reason), listener: failure.listener });
}
