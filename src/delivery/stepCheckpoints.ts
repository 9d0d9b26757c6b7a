import type { Step } from "../app/contract";
import { HandlerMisuse, LeaseLost } from "../platform/errors";
import { inSpan, type SpanAttributes } from "../platform/spans";
import { isTooBig, ROW_BYTES_MAX, utf8Bytes } from "../platform/sql/sqlLimits";
import type { Outbox } from "../recording/outbox";
import { inFirstLease } from "../recording/outboxRows";
import { KEPT_RESULT_BYTES_MAX, type StepScopes } from "./runningSteps";

const STEP_NAME = /^[\w.:-]{1,100}$/;

/**
 * The `step()` of one attempt of a run: a completed step's result is stored on the run's
 * outbox row, fenced by the attempt's lease, and returned instead of running it again.
 */
export function stepFor(
  outbox: Outbox,
  outboxKey: string,
  token: string,
  noCheckpointsUntil?: number,
  /** Writes a checkpoint in a turn other writes share (completions.ts `soon`); else at once. */
  shared: <W>(write: () => W) => Promise<W> = async (write) => write(),
  scopes?: StepScopes,
  /** The attempt's ids, on each step's span. */
  traced: SpanAttributes = {},
): Step {
  /** Steps this attempt recorded: on a row that had none, the only checkpoints there can be. */
  const recordedHere = new Map<string, string>();
  return async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
    if (!STEP_NAME.test(name))
      throw new HandlerMisuse(
        `step name ${JSON.stringify(String(name)).slice(0, 120)} must be 1-100 letters, digits, _ . : or -`,
      );
    // A fresh row's checkpoints are this attempt's own until its first lease could run out.
    const prior = recordedHere.get(name) ?? (inFirstLease(noCheckpointsUntil) ? undefined : outbox.steps.read(outboxKey, name));
    if (prior !== undefined) return JSON.parse(prior) as T;
    const running = scopes?.enter(name);
    let value: T;
    try {
      const settled = inSpan("step", () => ({ ...traced, step: name }), fn);
      running?.begun();
      value = await settled;
    } finally {
      if (running) scopes?.leave(running);
    }
    const result = storable(name, value);
    // Its only work was one post a lookup finds after a crash, whose answer it returned: that post is its checkpoint
    // until the attempt's next write (a retry's, a park's, a suspension's, a stop's UPDATE) records it — or none, if it completes.
    if (value === running?.soleFindablePost() && value !== undefined && utf8Bytes(result) <= KEPT_RESULT_BYTES_MAX) {
      scopes?.keep(name, result);
      recordedHere.set(name, result);
      return JSON.parse(result) as T;
    }
    // fn's awaits opened the input gate: another attempt may own the row by now.
    const recorded = await shared(() => outbox.steps.recordStep(outboxKey, name, token, result)).catch((error: unknown) => {
      // Every attempt would fail the same way: parked at once, never running the step (a model call, say) again.
      if (isTooBig(error))
        throw new HandlerMisuse(
          `step "${name}" returned ${utf8Bytes(result).toLocaleString("en-US")} bytes of JSON, which would take its run's row past Cloudflare's limit of ${ROW_BYTES_MAX.toLocaleString("en-US")} bytes for a row (SQLITE_TOOBIG): keep large results elsewhere (R2, KV) and return a reference`,
          { cause: error },
        );
      throw error;
    });
    if (recorded === undefined) throw new LeaseLost(`lease on ${outboxKey} was taken over before step "${name}" was recorded`);
    scopes?.recorded(name);
    recordedHere.set(name, recorded);
    return JSON.parse(recorded) as T;
  };
}

/** A step's result as stored JSON; one JSON cannot hold (a BigInt, a cycle, a function) fails every attempt alike. */
function storable(name: string, value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value ?? null);
  } catch (error) {
    const why = String(error).slice(0, 120);
    throw new HandlerMisuse(`step "${name}" returned a value JSON cannot store (${why}): return plain data`, { cause: error });
  }
  if (json === undefined)
    throw new HandlerMisuse(`step "${name}" returned a ${typeof value}, which JSON cannot store: return plain data`);
  return json;
}
