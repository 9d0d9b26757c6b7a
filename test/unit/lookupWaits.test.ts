import { describe, expect, it } from "vitest";
import { LookupWaits } from "../../src/parts/posts";

describe("LookupWaits: a row's wait for its lookup counts from its first try, across its attempts", () => {
  it("the deadline stays where the first try put it, until the lookup is over; a later uncertainty waits anew", () => {
    const waits = new LookupWaits(30_000);
    expect(waits.deadline("row", 1_000)).toBe(31_000);
    // Its retry after a turn in the pace, or after a 429: still the first try's deadline.
    expect(waits.deadline("row", 25_000)).toBe(31_000);
    expect(waits.deadline("other", 25_000)).toBe(55_000);
    waits.over("row");
    expect(waits.deadline("row", 40_000)).toBe(70_000);
  });
});
