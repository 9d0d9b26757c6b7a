import { describe, expect, it } from "vitest";
import { deliveryBudgetOf, InvocationMeters, SPENT_RESUME_MS, SubrequestsSpent } from "../../src/platform/invocationMeter";

describe("an invocation's subrequests", () => {
  it("delivery spends all but a tenth of the plan's subrequests (at least one kept back)", () => {
    expect([10_000, 50, 20, 10].map(deliveryBudgetOf)).toEqual([9_000, 45, 18, 9]);
  });

  it("a meter takes one subrequest a call and refuses, unsent, once the budget is spent", () => {
    const meters = new InvocationMeters(3, "T1/0");
    const meter = meters.current;
    for (let call = 0; call < 3; call++) meter.take();
    expect(meter.spent).toBe(true);
    expect(() => meter.take()).toThrow(SubrequestsSpent);
    expect(meter.left).toBe(0);
  });

  it("a new invocation starts a new meter only while no delivery work runs: work still running counts on the one it joined", () => {
    const meters = new InvocationMeters(2, "T1/0");
    const release = meters.hold();
    meters.current.take();
    meters.current.take();
    meters.invoked();
    expect(meters.current.spent).toBe(true);
    release();
    meters.invoked();
    expect(meters.current.left).toBe(2);
  });

  it("work that ends between invocations leaves the meter as it is until the next invocation begins", () => {
    const meters = new InvocationMeters(2, "T1/0");
    const release = meters.hold();
    meters.current.take();
    release();
    // A row let go from the line after another ended is still the same invocation's work.
    meters.hold();
    expect(meters.current.left).toBe(1);
  });

  it("due rows wake the shard no sooner than SPENT_RESUME_MS while a spent meter is still held", () => {
    const meters = new InvocationMeters(1, "T1/0");
    meters.current.take();
    expect(meters.wakeAt(100, 100)).toBe(100);
    const release = meters.hold();
    expect(meters.wakeAt(100, 100)).toBe(100 + SPENT_RESUME_MS);
    expect(meters.wakeAt(null, 100)).toBeNull();
    release();
    expect(meters.wakeAt(100, 100)).toBe(100);
  });

  it("after an invocation cut an attempt short, the next one is lean (rows one at a time) until one ends without", () => {
    const meters = new InvocationMeters(1, "T1/0");
    meters.current.take();
    meters.current.cutShort = true;
    meters.invoked();
    expect(meters.current.lean).toBe(true);
    // An invocation that made no call (nothing was due) changes nothing.
    meters.invoked();
    expect(meters.current.lean).toBe(true);
    meters.current.take();
    meters.invoked();
    expect(meters.current.lean).toBe(false);
  });
});
