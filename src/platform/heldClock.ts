/**
 * Waits for a time on the clock the coordinator reads (`Date.now`). In production that clock is
 * real time. A test may hold it (the kit's `TestClock`: time passes only when the test says), and
 * a wait for a time on a held clock would never end — a paced call's turn, a stream's wait for
 * its turn: the attempt, and the test's `runShardAlarm` with it, would hang. So a held clock makes
 * itself known here, and such a wait moves it to its end instead, as that much time would pass.
 * One global, found by every copy of the package in the isolate (a test's kit and the Worker it
 * tests may be bundled apart). Timeouts are not waits for a time: they stay real time.
 */
export const HELD_CLOCK = Symbol.for("slack-durable-coordinator.heldClock");

/** A clock a test holds: `reach(at)` moves it to `at` unless it is there already. */
export interface HeldClock {
  reach(at: number): void;
}

type WithHeldClock = typeof globalThis & { [HELD_CLOCK]?: HeldClock };

/** Makes `clock` the held clock of this isolate (undefined: none, real time again). */
export function holdClock(clock: HeldClock | undefined): void {
  const global = globalThis as WithHeldClock;
  if (clock) global[HELD_CLOCK] = clock;
  else delete global[HELD_CLOCK];
}

/** The held clock, if a test holds one. */
export function heldClock(): HeldClock | undefined {
  return (globalThis as WithHeldClock)[HELD_CLOCK];
}

/**
 * Resolves once `Date.now()` reads `at` or later: after that much real time, or — the clock held —
 * once it was moved there (after a turn of the event loop, as other work goes on while one waits).
 */
export function waitForClock(at: number): Promise<void> {
  const held = heldClock();
  held?.reach(at);
  const ms = held ? 0 : Math.max(0, at - Date.now());
  return new Promise((resolve) => setTimeout(resolve, ms));
}
