import { vi } from "vitest";

/**
 * Takes over Date.now for the Worker and its shards (they share the tests' isolate). The
 * clock starts an hour ahead of real time, so alarms the shard arms lie in the real future:
 * only runDurableObjectAlarm fires them, and the test decides when time passes.
 */
export function controlClock() {
  let now = Date.now() + 3_600_000;
  vi.spyOn(Date, "now").mockImplementation(() => now);
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      return now;
    },
  };
}
