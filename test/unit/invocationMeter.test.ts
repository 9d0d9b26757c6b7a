import { describe, expect, it } from "vitest";
import { deliveryBudgetOf, InvocationMeters, SubrequestsSpent } from "../../src/platform/invocationMeter";

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

  it("each invocation has a meter of its own: work still running keeps counting on the one it began with", () => {
    const meters = new InvocationMeters(3, "T1/0");
    const first = meters.current;
    first.take();
    first.take();
    meters.invoked();
    const second = meters.current;
    expect(second).not.toBe(first);
    expect(second.left).toBe(3);
    // The first invocation's work goes on after the second began: its own meter still counts it.
    first.take();
    expect(first.spent).toBe(true);
    expect(() => first.take()).toThrow(SubrequestsSpent);
  });

  it("every call also counts on the shard's window, renewed as each invocation begins: at most a budget between two", () => {
    const meters = new InvocationMeters(3, "T1/0");
    const first = meters.current;
    meters.invoked();
    const second = meters.current;
    first.take();
    second.take();
    second.take();
    // Three calls since the last invocation began, whoever made them: none more until the next.
    expect(first.left).toBe(0);
    expect(() => first.take()).toThrow(SubrequestsSpent);
    expect(() => second.take()).toThrow(SubrequestsSpent);
    meters.invoked();
    // Renewed: each meter has what its own budget and the new window allow.
    expect(first.left).toBe(2);
    expect(second.left).toBe(1);
    expect(meters.current.left).toBe(3);
  });

  it("after an invocation cut an attempt short, the next one is lean (rows one at a time) until one ends without", () => {
    const meters = new InvocationMeters(1, "T1/0");
    meters.current.take();
    meters.cutShort(meters.current);
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
