import { ListenerGone, ParkedError } from "../../platform/errors";
import type { EnvBindings, PlannedEffect, RunEffect, RunFailure } from "../contract";
import type { ListenerContext } from "./listenerArgs";
import type { RunArgs } from "./listeners";

/** The name `app.error`'s runs are performed, logged and parked under. */
export const ERROR_HANDLER = "app.error";

/**
 * Bolt's extended error handler's `{ error, logger, body, context }`, and the rest of the failed
 * listener's run arguments (`client`, `say`, `respond`, `step`, `env`, …) with its name, `listener`.
 * Bolt's `message` is the error's own: an `app.message` listener's event is `event` here.
 */
export type ErrorArgs<Env = EnvBindings> = Omit<RunArgs<ListenerContext, Env>, "message"> & {
  error: ParkedError;
  listener: string;
};

/**
 * What `app.error`'s handler is given: the error itself, as Bolt's `app.error(async (error) => …)`
 * gets it (`message`, `code`, `original`), which also carries `ErrorArgs` — so Bolt's extended
 * shape, `async ({ error, logger, body, context }) => …`, works too.
 */
export type ErrorHandlerArg<Env = EnvBindings> = ParkedError & ErrorArgs<Env>;

export type ErrorHandler<Env = EnvBindings> = (error: ErrorHandlerArg<Env>) => void | Promise<void>;

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

/**
 * The error with the run arguments on it, each not enumerable: what logs or serializes the error
 * (a logger, `JSON.stringify`) sees an error, never the env's secrets or the client.
 */
function errorWithArgs(failure: RunFailure, { message: _event, ...args }: RunArgs): ErrorHandlerArg {
  const error = new ParkedError(failure.listener, failure.reason);
  const fields = Object.entries({ ...args, error }).map(([name, value]) => [name, { value, writable: true, configurable: true }]);
  return Object.defineProperties(error, Object.fromEntries(fields)) as ErrorHandlerArg;
}

/** Performs `app.error`'s run with the failed listener's run arguments. */
export async function runErrorHandler(handler: ErrorHandler | undefined, failure: RunFailure, args: RunArgs): Promise<void> {
  if (!handler) throw new ListenerGone("no app.error handler any more");
  await handler(errorWithArgs(failure, args));
}
