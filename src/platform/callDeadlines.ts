import { TickingSet } from "./tickingSet";

/** How often a shard looks for calls past their deadline: a timeout fires at most two of these late. */
export const DEADLINE_TICK_MS = 100;

/** A call's deadline: its signal aborts once the deadline has passed; `end` once it was answered. */
export interface CallDeadline {
  signal: AbortSignal;
  end(): void;
}

interface Running {
  /** The tick at which it is late. */
  dueTick: number;
  controller: AbortController;
}

/**
 * The timeouts of a shard's concurrent outbound calls (DELIVERY_TIMEOUT_MS), kept by one timer
 * instead of one per call: `AbortSignal.timeout` arms a timer that fires even after its call was
 * answered in a millisecond, on every Web API call of every row. Time is counted in the timer's
 * own ticks, as a timer of its own would (not by Date.now, which a test may hold still), so a
 * call aborts with a TimeoutError between `timeoutMs` and `timeoutMs` + 2 ticks.
 */
export class CallDeadlines {
  private readonly running: TickingSet<Running>;

  constructor(private readonly tickMs = DEADLINE_TICK_MS) {
    this.running = new TickingSet(tickMs, (call) => this.stillDue(call));
  }

  /** A deadline `timeoutMs` from now. */
  start(timeoutMs: number): CallDeadline {
    // The first tick comes between 0 and tickMs from now: one more makes the wait at least timeoutMs.
    const call: Running = {
      dueTick: this.running.ticks + Math.ceil(timeoutMs / this.tickMs) + 1,
      controller: new AbortController(),
    };
    this.running.add(call);
    return { signal: call.controller.signal, end: () => this.running.delete(call) };
  }

  /** Looks for calls past their deadline now (the timer's tick; tests call it directly). */
  readonly tick = (): void => this.running.tick();

  /** Calls whose deadline is kept now (tests, stats). */
  get pending(): number {
    return this.running.size;
  }

  private stillDue(call: Running): boolean {
    if (this.running.ticks < call.dueTick) return true;
    call.controller.abort(new DOMException("The call's deadline passed", "TimeoutError"));
    return false;
  }
}

/** A deadline with a timer of its own, where no shard keeps them (the edge, one-off calls). */
export function ownDeadline(timeoutMs: number): CallDeadline {
  return { signal: AbortSignal.timeout(timeoutMs), end: () => {} };
}
