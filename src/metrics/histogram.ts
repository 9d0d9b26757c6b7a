/**
 * Latency histograms with fixed bounds (ms), so minutes and shards add up bucket by bucket and
 * percentiles are computed from the sums. A value falls in the first bucket whose bound is at
 * least it; the last bucket holds everything above the last bound.
 */
export const BOUNDS_MS = [
  5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000, 21_600_000, 86_400_000,
] as const;

/** Counts per bucket: BOUNDS_MS.length + 1 of them. */
export type Histogram = number[];

export const emptyHistogram = (): Histogram => new Array(BOUNDS_MS.length + 1).fill(0);

export function observe(histogram: Histogram, ms: number): void {
  const index = BOUNDS_MS.findIndex((bound) => ms <= bound);
  histogram[index === -1 ? BOUNDS_MS.length : index]! += 1;
}

/** Adds `from` into `into`, bucket by bucket (a histogram of another length is ignored). */
export function addInto(into: Histogram, from: readonly number[]): void {
  if (from.length !== into.length) return;
  for (let i = 0; i < into.length; i++) into[i]! += from[i] ?? 0;
}

/**
 * The `q` quantile (0–1) as the upper bound of the bucket that holds it — an upper estimate,
 * never below the true value; null for an empty histogram, Infinity when it falls above the
 * last bound.
 */
export function quantile(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i]!;
    if (seen >= rank) return BOUNDS_MS[i] ?? Number.POSITIVE_INFINITY;
  }
  return Number.POSITIVE_INFINITY;
}
