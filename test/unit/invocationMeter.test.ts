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

  it("an attempt begins only with its expected calls promised: another's calls cannot take them, and what it leaves goes back", () => {
    const meters = new InvocationMeters(5, "T1/0");
    const invocation = meters.current;
    const first = invocation.promise(2)!;
    const second = invocation.promise(2)!;
    // One left beside the four promised: a third attempt expecting two does not begin.
    expect(invocation.left).toBe(1);
    expect(invocation.promise(2)).toBeUndefined();
    // The first makes more calls than it was promised: its third takes the one left, its fourth is refused.
    for (let call = 0; call < 3; call++) first.take();
    expect(() => first.take()).toThrow(SubrequestsSpent);
    // The second's promised calls still go.
    second.take();
    second.take();
    expect(() => second.take()).toThrow(SubrequestsSpent);
    expect(meters.current.spent).toBe(true);
  });

  it("what an attempt did not use goes back to its invocation; the next of its work is promised the most one asked for", () => {
    const meters = new InvocationMeters(10, "T1/0");
    expect(meters.expectedCalls("run:mention")).toBe(1);
    expect(meters.expectedCalls("run:mention", 2)).toBe(2);
    const attempt = meters.current.promise(meters.expectedCalls("run:mention"))!;
    for (let call = 0; call < 3; call++) attempt.take();
    meters.ended("run:mention", attempt);
    expect(meters.expectedCalls("run:mention")).toBe(3);
    const shorter = meters.current.promise(3)!;
    shorter.take();
    expect(meters.current.left).toBe(10 - 3 - 1 - 2);
    meters.ended("run:mention", shorter);
    // Its two unused calls are free again; the work is still expected to need three.
    expect(meters.current.left).toBe(10 - 3 - 1);
    expect(meters.expectedCalls("run:mention")).toBe(3);
    // Never more than a whole budget: work needing more begins on a fresh invocation, and is cut short there.
    const greedy = meters.current.promise(1)!;
    for (let call = 0; call < 6; call++) greedy.take();
    meters.ended("run:stream", greedy);
    expect(meters.expectedCalls("run:stream")).toBe(6);
    const big = new InvocationMeters(4, "T1/0");
    const huge = big.current.promise(1)!;
    for (let call = 0; call < 4; call++) huge.take();
    expect(() => huge.take()).toThrow(SubrequestsSpent);
    big.ended("run:stream", huge);
    expect(big.expectedCalls("run:stream")).toBe(4);
  });

  it("calls promised to attempts still running stay promised when the window is renewed", () => {
    const meters = new InvocationMeters(4, "T1/0");
    const attempt = meters.current.promise(3)!;
    meters.invoked();
    // The new invocation's window renewed its calls made, not those promised to the running attempt.
    expect(meters.current.left).toBe(1);
    expect(meters.current.promise(2)).toBeUndefined();
    for (let call = 0; call < 3; call++) attempt.take();
    expect(meters.current.left).toBe(1);
  });
});
