import { describe, expect, it } from "vitest";
import { PRICES } from "../../bench/pricing";
import { addUsage, dollarsPerMillionEvents, type MeasuredUsage } from "../../bench/report/dollars";

/** Round prices, so each term below can be worked out by hand. */
const PRICES_FOR_ARITHMETIC = {
  workers: { ...PRICES.workers, requestsUsdPerMillion: 0.3, cpuMsUsdPerMillion: 0.02 },
  durableObjects: {
    ...PRICES.durableObjects,
    requestsUsdPerMillion: 0.15,
    durationUsdPerMillionGbS: 12.5,
    memoryGb: 0.128,
    rowsWrittenUsdPerMillion: 1,
    rowsReadUsdPerMillion: 0.001,
    storageUsdPerGbMonth: 0.2,
  },
  d1: { ...PRICES.d1, rowsWrittenUsdPerMillion: 1, rowsReadUsdPerMillion: 0.001, storageUsdPerGbMonth: 0.75 },
} as unknown as typeof PRICES;

/** 1,000 events through a Worker and one shard: the coordinator's shape. */
const SHARD_RUN: MeasuredUsage = {
  events: 1000,
  workerRequests: 1000,
  cronInvocations: 0,
  workerCpuMs: 3000,
  objectRequests: 1000,
  objectAlarms: 10,
  objectActiveSeconds: 10,
  rowsWritten: 4000,
  rowsRead: 10_000,
  storedBytes: 1_000_000,
  storedHours: 36,
  store: "durable-objects",
};

const term = (usage: MeasuredUsage, name: string, prices = PRICES_FOR_ARITHMETIC) =>
  dollarsPerMillionEvents(usage, prices).terms.find((t) => t.term === name);

describe("dollars per million events (bench/report/dollars.ts)", () => {
  it("prices each term's units per event, and the total is their sum", () => {
    const dollars = dollarsPerMillionEvents(SHARD_RUN, PRICES_FOR_ARITHMETIC);
    const usd = Object.fromEntries(dollars.terms.map((t) => [t.term, t.usdPerMillionEvents]));
    expect(usd["worker requests"]).toBeCloseTo(0.3, 10); // 1 request an event at $0.30 a million
    expect(usd["worker CPU-ms"]).toBeCloseTo(0.06, 10); // 3 ms at $0.02 a million ms
    expect(usd["DO requests (RPC)"]).toBeCloseTo(0.15, 10);
    expect(usd["DO alarms"]).toBeCloseTo(0.0015, 10); // 0.01 alarm an event
    // 10 s × 0.128 GB over 1,000 events = 0.00128 GB-s an event, at $12.50 a million GB-s.
    expect(term(SHARD_RUN, "DO duration GB-s")?.perEvent).toBeCloseTo(0.00128, 10);
    expect(usd["DO duration GB-s"]).toBeCloseTo(0.016, 10);
    expect(usd["rows written"]).toBeCloseTo(4, 10);
    expect(usd["rows read"]).toBeCloseTo(0.01, 10);
    // 1 MB kept 36 h of a 720 h month: 0.00005 GB-month over 1,000 events, at $0.20.
    expect(usd["storage GB-month"]).toBeCloseTo(0.01, 10);
    expect(usd["worker cron invocations"]).toBe(0);
    expect(dollars.usdPerMillionEvents).toBeCloseTo(0.3 + 0.06 + 0.15 + 0.0015 + 0.016 + 4 + 0.01 + 0.01, 10);
  });

  it("a D1 design's rows and storage are priced at D1's rates; its cron ticks as Worker requests", () => {
    const seed: MeasuredUsage = {
      ...SHARD_RUN,
      objectRequests: 0,
      objectAlarms: 0,
      objectActiveSeconds: 0,
      cronInvocations: 2,
      storedHours: 24,
      store: "d1",
    };
    expect(term(seed, "storage GB-month")?.usdPerMillionEvents).toBeCloseTo(((0.001 * 24) / 720 / 1000) * 1e6 * 0.75, 10);
    expect(term(seed, "worker cron invocations")?.usdPerMillionEvents).toBeCloseTo(0.002 * 0.3, 10);
    expect(term(seed, "DO duration GB-s")?.usdPerMillionEvents).toBe(0);
    const cheaperReads = { ...PRICES_FOR_ARITHMETIC, d1: { ...PRICES_FOR_ARITHMETIC.d1, rowsReadUsdPerMillion: 0 } };
    expect(term(seed, "rows read", cheaperReads as typeof PRICES)?.usdPerMillionEvents).toBe(0);
    expect(term(SHARD_RUN, "rows read", cheaperReads as typeof PRICES)?.usdPerMillionEvents).toBeCloseTo(0.01, 10);
  });

  it("rounds add up: two rounds cost per event what one round twice as long does", () => {
    const twice = addUsage(SHARD_RUN, SHARD_RUN);
    expect(twice.events).toBe(2000);
    expect(twice.storedHours).toBe(36);
    expect(dollarsPerMillionEvents(twice, PRICES).usdPerMillionEvents).toBeCloseTo(
      dollarsPerMillionEvents(SHARD_RUN, PRICES).usdPerMillionEvents,
      10,
    );
  });

  it("at the list prices kept in bench/pricing.ts, 4 rows written an event are $4 a million events", () => {
    expect(PRICES.durableObjects.rowsWrittenUsdPerMillion).toBe(1);
    expect(term(SHARD_RUN, "rows written", PRICES)?.usdPerMillionEvents).toBeCloseTo(4, 10);
  });
});
