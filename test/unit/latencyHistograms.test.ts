import { describe, expect, it } from "vitest";
import { BOUNDS_MS, emptyHistogram, observe, quantile } from "../../src/metrics/histogram";

describe("latency histograms", () => {
  it("percentiles are the upper bound of the bucket that holds them", () => {
    const histogram = emptyHistogram();
    for (const ms of [1, 2, 3, 4, 7, 30, 30, 30, 400, 100_000_000]) observe(histogram, ms);
    expect(histogram).toHaveLength(BOUNDS_MS.length + 1);
    expect(quantile(histogram, 0.5)).toBe(10);
    expect(quantile(histogram, 0.8)).toBe(50);
    expect(quantile(histogram, 0.4)).toBe(5);
    expect(quantile(histogram, 0.9)).toBe(500);
    expect(quantile(histogram, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(quantile(emptyHistogram(), 0.5)).toBeNull();
  });
});
