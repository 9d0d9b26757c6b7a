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

/**
 * Lets time pass in steps and fires the shard's alarm after each, so whatever an attempt still
 * in flight settles to (a retry a few seconds out, a lease running out) is swept: the outcome
 * no longer depends on how far that attempt had got when the test moved on.
 */
export async function sweepUntilQuiet(
  stub: DurableObjectStub,
  clock: { advance(ms: number): number },
  rounds = 4,
  stepMs = 15_000,
): Promise<void> {
  const { runDurableObjectAlarm } = await import("cloudflare:test");
  for (let i = 0; i < rounds; i++) {
    clock.advance(stepMs);
    await runDurableObjectAlarm(stub);
  }
}
