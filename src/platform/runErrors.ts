/**
 * A run's own errors (platform/errors.ts re-exports them): how a listener's run ends other than by
 * a failure's disposition — stopped by its user or a newer message (`RunStopped`), its model's
 * stream aborted (`ModelAborted`), a stream's start too far from its turn (`StartsExhausted`) —
 * and what `app.error` is given once it is parked (`ParkedError`, Bolt's `CodedError`).
 */
import { DeliveryError } from "./deliveryErrors";

/** The reason a stopped run's row is kept with (`agent_session_stopped`): its `last_error`, as a stopped run. */
export const STOPPED_BY_USER = "stopped by user";

/** The reason a turn's rows are parked with when a newer message of its conversation interrupts it (`turns: "interrupt"`). */
export const INTERRUPTED = "interrupted by a newer message";

/**
 * The user stopped the run's conversation (agent_session_stopped), or a newer message interrupted
 * its turn (`reason`): the run ends as stopped at once — an outcome, not a failure: never retried,
 * parked, alerted on or logged as an error. A user's stop carries `shownStreams`, the streams
 * Slack showed streaming at the click and stopped (`streaming_message_ts`).
 */
export class RunStopped extends DeliveryError {
  override name = "RunStopped";
  readonly disposition = "stop";
  constructor(
    reason: string = STOPPED_BY_USER,
    readonly shownStreams: readonly string[] = [],
    /** False when the stop met the attempt before it began: it is not counted (platform/settlement.ts). */
    readonly began = true,
  ) {
    super(reason);
  }
}

/** What a run whose stop `signal` was aborted throws: the stop it was aborted with (its reason), else a user's stop. */
export function stoppedBy(signal: AbortSignal | undefined): RunStopped {
  return signal?.reason instanceof RunStopped ? signal.reason : new RunStopped();
}

/** The model's stream ended on an `abort` part: the run's `signal`, or `streamText`'s own timeout, aborted it. */
export class ModelAborted extends Error {
  override readonly name = "ModelAborted";
}

/** A stream's start would wait past its bound (START_WAIT_BOUND_MS): its reply is posted and updated in place. */
export class StartsExhausted extends Error {
  override name = "StartsExhausted";
}

/** Bolt's `CodedError`: an Error with a `code` saying what kind of failure it is, and the error it stands for. */
export interface CodedError extends Error {
  code: string;
  original?: Error;
}

/**
 * What parked the run, as a code in the manner of Bolt's `ErrorCode` (`slack_bolt_unknown_error`):
 * the listener threw (its own bug, every attempt used), used a helper where it cannot work, or
 * something else no retry cured (a Slack error such as `channel_not_found`, the listener gone).
 */
export type ParkedErrorCode =
  | "slack_coordinator_handler_error"
  | "slack_coordinator_handler_misuse"
  | "slack_coordinator_run_parked";

/** The last failure of a park reason: after `attempts exhausted; last: ` or `retry horizon passed; last: `. */
function lastFailure(reason: string): string {
  return /^(?:attempts exhausted|retry horizon passed); last: ([\s\S]*)$/.exec(reason)?.[1] ?? reason;
}

/** `TypeError: broken (at run (app.js:3:9))` without the frame effects/run.ts adds (platform/log.ts describeError). */
function withoutFrame(text: string): string {
  const at = text.lastIndexOf(" (at ");
  return at >= 0 && text.endsWith(")") ? text.slice(0, at) : text;
}

/** An Error named `name` with `message`: what the run threw, as its park reason records it. */
function rebuilt(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/**
 * The park reason read back (its shapes are effects/run.ts's): `handler "…" threw TypeError: …`
 * for a listener's own throw, `handler "…": …` for a misuse, anything else as it is.
 */
export function failureOf(reason: string): { code: ParkedErrorCode; original: Error } {
  const last = lastFailure(reason);
  const thrown = /^handler "[^"]*" threw ([A-Za-z_$][\w$]*): ([\s\S]*)$/.exec(last);
  if (thrown) return { code: "slack_coordinator_handler_error", original: rebuilt(thrown[1]!, withoutFrame(thrown[2]!)) };
  const misuse = /^handler "[^"]*": ([\s\S]*)$/.exec(last);
  if (misuse) return { code: "slack_coordinator_handler_misuse", original: rebuilt("HandlerMisuse", misuse[1]!) };
  return { code: "slack_coordinator_run_parked", original: new Error(last) };
}

/**
 * A listener's run, finally parked, as Bolt's error handler gets an error: `message` is the park
 * reason (as the parked row lists it), `code` what kind of failure it was, `original` what the run
 * threw — rebuilt from the reason (the run that threw it ended before this one began): its class
 * name and message.
 */
export class ParkedError extends Error implements CodedError {
  override name = "ParkedError";
  readonly code: ParkedErrorCode;
  readonly original: Error;
  /** The class of what was thrown (`TypeError`, `HandlerMisuse`), when the park reason says. */
  readonly originalName?: string;

  constructor(
    readonly listener: string,
    readonly reason: string,
  ) {
    super(reason);
    const { code, original } = failureOf(reason);
    this.code = code;
    this.original = original;
    this.originalName = code === "slack_coordinator_run_parked" ? undefined : original.name;
  }
}
