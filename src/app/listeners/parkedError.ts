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
