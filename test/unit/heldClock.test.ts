import { afterEach, describe, expect, it } from "vitest";
import { Pacer } from "../../src/pacing/pacer";
import { callPacing, type PaceKeeper } from "../../src/pacing/pacing";
import { heldClock, waitForClock } from "../../src/platform/heldClock";
import { TestClock } from "../../src/testing";

// Issue 46, point 6: a wait for a time on the kit's held clock moves that clock, instead of
// waiting in real time for a time it would never reach.

let clock: TestClock | undefined;
afterEach(() => clock?.restore());

/** This isolate's pacer as the keeper of every rate key, on Date.now (the test's clock). */
function localKeeper(): PaceKeeper {
  const pacer = new Pacer();
  return {
    reserve: (rateKey, pace, holder) => pacer.reserve(rateKey, pace, holder, Date.now()),
    spend: (rateKey, holder) => pacer.spend(rateKey, holder),
    blockUntil: (rateKey, until, holder) => pacer.blockUntil(rateKey, until, holder, Date.now()),
  };
}

describe("the kit's TestClock holds the clock the coordinator waits on", () => {
  it("a wait for a time a minute ahead moves the held clock there, at once", async () => {
    clock = new TestClock();
    const at = clock.now() + 60_000;
    const real = performance.now();
    await waitForClock(at);
    expect(clock.now()).toBe(at);
    expect(performance.now() - real).toBeLessThan(500);
    // Never back: a wait for a past time leaves it.
    await waitForClock(at - 30_000);
    expect(clock.now()).toBe(at);
  });

  it("paced calls waiting for their turns move it by Slack's pace (chat.appendStream: one every 0.6 s)", async () => {
    clock = new TestClock();
    const start = clock.now();
    const keeper = localKeeper();
    const pacing = callPacing(() => keeper, "T1", "row-1");
    const real = performance.now();
    for (let i = 0; i < 3; i++) await pacing.before("chat.appendStream", { channel: "C1", ts: "1.2" });
    // The first goes at once, the next two each wait their turn on the held clock.
    expect(clock.now() - start).toBe(1_200);
    expect(performance.now() - real).toBeLessThan(500);
  });

  it("restore gives the real clock back: a wait is real time again", async () => {
    clock = new TestClock();
    clock.restore();
    expect(heldClock()).toBeUndefined();
    const real = performance.now();
    await waitForClock(Date.now() + 50);
    expect(performance.now() - real).toBeGreaterThanOrEqual(40);
  });
});
