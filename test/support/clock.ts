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

/** How long (real time) a sweep waits for an attempt still out before it moves the clock anyway. */
const ATTEMPT_OUT_MS = 2_000;

/**
 * Lets time pass in steps and fires the shard's alarm after each, so whatever an attempt still
 * in flight settles to (a retry a few seconds out, a parked row) is swept: the outcome no longer
 * depends on how far that attempt had got when the test moved on. Before each step it waits
 * (real time, at most ATTEMPT_OUT_MS) until no row's lease is live: a step past the lease while
 * its attempt is still out would let the sweep claim the row beside it, and two attempts at once
 * each send (at least once, as designed; in production lease renewals keep a live attempt's
 * lease). A lease left by an evicted instance is past waiting for: the step then runs it out.
 */
export async function sweepUntilQuiet(
  stub: DurableObjectStub,
  clock: { advance(ms: number): number; now(): number },
  rounds = 4,
  stepMs = 15_000,
): Promise<void> {
  const { runDurableObjectAlarm } = await import("cloudflare:test");
  for (let i = 0; i < rounds; i++) {
    await untilNoAttemptOut(stub, clock.now());
    clock.advance(stepMs);
    await runDurableObjectAlarm(stub);
  }
}

/**
 * Waits (real time, at most ATTEMPT_OUT_MS) until no row of the shard is in an attempt: no lease
 * live at `now`. Before the held clock moves past a lease: see sweepUntilQuiet.
 */
export async function untilNoAttemptOut(stub: DurableObjectStub, now: number): Promise<void> {
  const { runInDurableObject } = await import("cloudflare:test");
  const leased = () =>
    runInDurableObject(stub, (_, state) => {
      const tables = state.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'outbox'").toArray();
      if (tables.length === 0) return 0;
      return state.storage.sql.exec("SELECT 1 FROM outbox WHERE claim_expires_at > ?", now).toArray().length;
    });
  const until = performance.now() + ATTEMPT_OUT_MS;
  while ((await leased()) > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
}
