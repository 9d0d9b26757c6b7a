import { describe, expect, it } from "vitest";
import { CallDeadlines } from "../../src/platform/callDeadlines";

// The timer is set an hour apart, so only the test's own ticks count time here.
const HOUR = 3_600_000;

describe("call deadlines kept by one timer for a shard's calls", () => {
  it("a call still running when its deadline has passed is aborted with a TimeoutError, not a tick before", () => {
    const deadlines = new CallDeadlines(HOUR);
    const call = deadlines.start(2.5 * HOUR); // 3 whole ticks, and the first may come at once
    const aborted: boolean[] = [];
    for (let tick = 1; tick <= 4; tick++) {
      deadlines.tick();
      aborted.push(call.signal.aborted);
    }
    expect(aborted).toEqual([false, false, false, true]);
    expect((call.signal.reason as DOMException).name).toBe("TimeoutError");
    expect(deadlines.pending).toBe(0);
  });

  it("a call answered in time is let go: never aborted, no longer looked at", () => {
    const deadlines = new CallDeadlines(HOUR);
    const answered = deadlines.start(HOUR);
    const running = deadlines.start(HOUR);
    answered.end();
    expect(deadlines.pending).toBe(1);
    for (let tick = 0; tick < 5; tick++) deadlines.tick();
    expect({ answered: answered.signal.aborted, running: running.signal.aborted }).toEqual({ answered: false, running: true });
    expect(deadlines.pending).toBe(0);
  });

  it("calls started later count from their own start", () => {
    const deadlines = new CallDeadlines(HOUR);
    const early = deadlines.start(HOUR);
    deadlines.tick();
    deadlines.tick();
    const late = deadlines.start(HOUR);
    deadlines.tick();
    expect({ early: early.signal.aborted, late: late.signal.aborted }).toEqual({ early: true, late: false });
    deadlines.tick();
    deadlines.tick();
    expect(late.signal.aborted).toBe(true);
  });
});
