import { HandlerMisuse, RunSleeping } from "../../platform/errors";
import type { Step } from "../contract";

/** A run's durable timers. */
export interface DurableTimers {
  /**
   * A durable timer (as Cloudflare Workflows' `step.sleep`): the attempt ends now — no lease,
   * isolate or delivery slot is held meanwhile — and the run goes on from the top after `ms`, its
   * steps kept, so the code after `sleep` runs once the time has come (± the sweep's alarm).
   * `name` names it among the run's steps (`sleep:{name}` holds its wake time: step names' letters,
   * digits, `_ . : -`). A stop (agent_session_stopped) cancels it.
   */
  sleep(name: string, ms: number): Promise<void>;
  /** As `sleep`, until `at` (a Date, or ms since the epoch). */
  sleepUntil(name: string, at: Date | number): Promise<void>;
}

/** The step holding a sleep's wake time. */
const SLEEP_STEP = "sleep:";

/** The sleep a step of a run holds the wake time of (its name), or null for any other step (an event's story reads it). */
export const sleepOfStep = (step: string): string | null => (step.startsWith(SLEEP_STEP) ? step.slice(SLEEP_STEP.length) : null);

/** `sleep` / `sleepUntil` over the run's `step`: the wake time is a checkpoint, so a retried or resumed run keeps it. */
export function durableTimers(step: Step): DurableTimers {
  const until = async (name: string, at: () => number): Promise<void> => {
    // Checkpointed once: however often the run goes through here, the time is the first attempt's.
    const wakeAt = await step(`${SLEEP_STEP}${name}`, () => {
      const time = at();
      if (!Number.isFinite(time)) throw new HandlerMisuse(`sleep "${name}": the time must be a finite number of ms`);
      return time;
    });
    if (Date.now() < wakeAt) throw new RunSleeping(name, wakeAt);
  };
  return {
    sleep: (name, ms) => until(name, () => Date.now() + Math.max(0, ms)),
    sleepUntil: (name, at) => until(name, () => (at instanceof Date ? at.getTime() : at)),
  };
}
