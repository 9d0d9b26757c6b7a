import { DeliveryError, HandlerMisuse, NotInstalled } from "../../platform/errors";

/**
 * Whether `error`, thrown by one of the run's tools, ends the attempt rather than being the run's
 * to handle: a suspension (a wait, a sleep, a paced call), a stop, a lost lease, a failure the
 * outbox retries (a 5xx, a 429, no answer) and a misuse or a missing installation that parks the
 * run. What stays the run's own: Slack's refusals no retry changes (`channel_not_found`, an
 * expired trigger_id, a response_url not allowed), which Bolt code catches and answers.
 */
export function endsTheAttempt(error: unknown): error is DeliveryError {
  if (!(error instanceof DeliveryError)) return false;
  return error.disposition !== "park" || error instanceof HandlerMisuse || error instanceof NotInstalled;
}

/** Errors the run's own code threw inside a `step()`: they stay its own, whatever their class. */
const ownErrors = new WeakSet<object>();

/** `fn`, its throws marked as the run's own: a RetryableError a step's function throws is the code's to catch. */
export function ownCode<T>(fn: () => T | Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await fn();
    } catch (error) {
      if (typeof error === "object" && error !== null) ownErrors.add(error);
      throw error;
    }
  };
}

/**
 * One attempt of a run, as its code sees it: what ends the attempt (a wait, a sleep, the stop
 * button, a failure the outbox retries) never reaches the code. The tool's promise never settles —
 * no `catch`, `finally` or next line of the listener runs — and the attempt ends with that error
 * at once (`race`), as durable-execution engines suspend a function: Slack's samples wrap every
 * listener in `try { … } catch { say(":warning: …") }`, which would otherwise swallow a wait and
 * answer the user with its error. Once ended, every further call of the run's tools does nothing
 * and never settles either.
 */
export class AttemptEnding {
  private reason?: { error: DeliveryError };
  private endNow: (error: DeliveryError) => void = () => {};
  /** Rejects with what ended the attempt, once something has. */
  private readonly ended = new Promise<never>((_, reject) => {
    this.endNow = reject;
  });

  constructor() {
    // Nobody may be racing yet when the attempt ends: not an unhandled rejection.
    this.ended.catch(() => {});
  }

  /** Calls one of the run's tools: its answer or its own error, else — it ends the attempt — never settles. */
  guard<T>(call: () => T | Promise<T>): Promise<T> {
    if (this.reason) return never();
    let answer: T | Promise<T>;
    try {
      answer = call();
    } catch (error) {
      return this.settledBy(error);
    }
    return Promise.resolve(answer).catch((error: unknown) => this.settledBy(error));
  }

  /** Ends the attempt with `error` (the first one counts); its caller waits for ever. */
  end(error: DeliveryError): Promise<never> {
    if (!this.reason) {
      this.reason = { error };
      this.endNow(error);
    }
    return never();
  }

  /** What ended the attempt, if anything has. */
  get error(): DeliveryError | undefined {
    return this.reason?.error;
  }

  /**
   * Runs the listener's code: its result, or its own error — or, as soon as the attempt ends, the
   * error that ended it, though the code is still awaiting (its promise is left to the collector).
   */
  async race(code: () => void | Promise<void>): Promise<void> {
    await Promise.race([Promise.resolve().then(code), this.ended]);
    // Ended by a call the code did not await (`say(…).catch(() => {})`): the attempt ends with it all the same.
    if (this.reason) throw this.reason.error;
  }

  private settledBy(error: unknown): Promise<never> {
    if (endsTheAttempt(error) && !ownErrors.has(error)) return this.end(error);
    return Promise.reject(error);
  }
}

/**
 * A promise that never settles. A new one each time: whatever awaits it is collected with it,
 * where one shared promise would keep every waiting listener's closure for the isolate's life.
 */
function never(): Promise<never> {
  return new Promise<never>(() => {});
}
