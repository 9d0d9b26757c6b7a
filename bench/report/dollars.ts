import type { Prices } from "../pricing";

/** What one subject used over measured runs (counts add across rounds); bench/scenarios/usage.ts fills it. */
export interface MeasuredUsage {
  /** Slack deliveries offered (each one inbound request to the Worker). */
  events: number;
  workerRequests: number;
  /** Cron Trigger invocations owed over the runs' time (one a minute; a subject without a cron: 0). */
  cronInvocations: number;
  /** CPU of the whole runtime (Worker, objects, database): an upper bound of the Worker's billed CPU. */
  workerCpuMs: number;
  /** Durable Object requests: RPC method calls and fetches on stubs. */
  objectRequests: number;
  objectAlarms: number;
  /** Seconds of objects kept active (estimated: each object reached, for the whole run). */
  objectActiveSeconds: number;
  /** Rows written (each setAlarm() included) and read, by the SQLite of the store below. */
  rowsWritten: number;
  rowsRead: number;
  /** Bytes the runs left stored, and how long they stay (hours). */
  storedBytes: number;
  storedHours: number;
  store: "durable-objects" | "d1" | "none";
}

export type TermName =
  | "worker requests"
  | "worker cron invocations"
  | "worker CPU-ms"
  | "DO requests (RPC)"
  | "DO alarms"
  | "DO duration GB-s"
  | "rows written"
  | "rows read"
  | "storage GB-month";

export interface DollarTerm {
  term: TermName;
  /** Units of the term per event (requests, CPU-ms, GB-s, rows, GB-months). */
  perEvent: number;
  /** Dollars for a million events: perEvent × 1,000,000 × the unit price. */
  usdPerMillionEvents: number;
}

export interface Dollars {
  terms: DollarTerm[];
  usdPerMillionEvents: number;
}

/** Cloudflare's GB-month: the day's peak storage averaged over a 30-day billing period. */
const HOURS_PER_BILLING_MONTH = 30 * 24;

/**
 * Dollars per million events: each term's units per event at its list price beyond the monthly
 * allowance. A pure function of the counts and the prices (test/unit/benchDollars.test.ts).
 */
export function dollarsPerMillionEvents(usage: MeasuredUsage, prices: Prices): Dollars {
  const events = Math.max(usage.events, 1);
  const { workers, durableObjects } = prices;
  const rows = usage.store === "d1" ? prices.d1 : durableObjects;
  const perMillion = (usdPerMillionUnits: number) => usdPerMillionUnits / 1e6;
  const units: Array<[TermName, number, number]> = [
    ["worker requests", usage.workerRequests, perMillion(workers.requestsUsdPerMillion)],
    ["worker cron invocations", usage.cronInvocations, perMillion(workers.requestsUsdPerMillion)],
    ["worker CPU-ms", usage.workerCpuMs, perMillion(workers.cpuMsUsdPerMillion)],
    ["DO requests (RPC)", usage.objectRequests, perMillion(durableObjects.requestsUsdPerMillion)],
    ["DO alarms", usage.objectAlarms, perMillion(durableObjects.requestsUsdPerMillion)],
    [
      "DO duration GB-s",
      usage.objectActiveSeconds * durableObjects.memoryGb,
      perMillion(durableObjects.durationUsdPerMillionGbS),
    ],
    ["rows written", usage.rowsWritten, perMillion(rows.rowsWrittenUsdPerMillion)],
    ["rows read", usage.rowsRead, perMillion(rows.rowsReadUsdPerMillion)],
    ["storage GB-month", (usage.storedBytes / 1e9) * (usage.storedHours / HOURS_PER_BILLING_MONTH), rows.storageUsdPerGbMonth],
  ];
  const terms = units.map(([term, total, usdPerUnit]) => {
    const perEvent = total / events;
    return { term, perEvent, usdPerMillionEvents: perEvent * 1e6 * usdPerUnit };
  });
  return { terms, usdPerMillionEvents: terms.reduce((sum, term) => sum + term.usdPerMillionEvents, 0) };
}

/** Sums two subjects' usage (rounds of one subject); the store and the hours are the first's. */
export function addUsage(a: MeasuredUsage, b: MeasuredUsage): MeasuredUsage {
  const sum = (key: keyof MeasuredUsage) => (a[key] as number) + (b[key] as number);
  return {
    events: sum("events"),
    workerRequests: sum("workerRequests"),
    cronInvocations: sum("cronInvocations"),
    workerCpuMs: sum("workerCpuMs"),
    objectRequests: sum("objectRequests"),
    objectAlarms: sum("objectAlarms"),
    objectActiveSeconds: sum("objectActiveSeconds"),
    rowsWritten: sum("rowsWritten"),
    rowsRead: sum("rowsRead"),
    storedBytes: sum("storedBytes"),
    storedHours: a.storedHours,
    store: a.store,
  };
}
