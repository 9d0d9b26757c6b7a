/** Latency percentiles in milliseconds (nearest-rank), rounded to 0.1 ms. */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

function nearestRank(sorted: readonly number[], percentile: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return round(sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!);
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: nearestRank(sorted, 50),
    p95: nearestRank(sorted, 95),
    p99: nearestRank(sorted, 99),
    max: sorted.length ? round(sorted.at(-1)!) : null,
  };
}
