import { DURABLE_OBJECTS_PRICES } from "../pricing";
import { ADMIN_TOKEN, type Subject } from "../subjects";
import type { BenchContext } from "./benchContext";
import { runAtRate } from "./runAtRate";
import { storyBytes } from "./storyBytes";

interface ShardStats {
  receipts: number;
  outbox: { pending: number; parked: number };
  counters: { accepted: number; rowsWritten: number; alarmsSet: number; [name: string]: number };
}

interface StatementCost {
  statement: string;
  calls: number;
  rowsWritten: number;
}

export interface RowsPerEvent {
  events: number;
  rate: number;
  receiptRetentionHours: number;
  /** All receipts were pruned (and the outbox drained) within the bounded wait. */
  pruned: boolean;
  waitedS: number;
  /** The shard instance lived through the whole scenario, so its in-memory counters cover every event. */
  countersComplete: boolean;
  rowsWritten: number;
  alarmsSet: number;
  /** Rows the per-statement tally saw (empty tally: metering unavailable); should equal rowsWritten. */
  talliedRowsWritten: number;
  /** (rowsWritten + alarmsSet) / accepted: what Cloudflare bills as rows written, per event. */
  rowsPerEvent: number;
  perStatement: Array<StatementCost & { rowsPerEvent: number }>;
  /**
   * Rows the guard against Slack's auto-disable wrote per event (the watch's answer counts and
   * state: its statements in the tally), on this all-success load.
   */
  guardRowsPerEvent: number | null;
  /**
   * Rows the persistent metrics wrote per event (metric minutes and the watch's shard registry),
   * over this short run: a minute's row is shared by the run's events only, so at a steady rate
   * over whole minutes it is less.
   */
  metricsRowsPerEvent: number | null;
  /**
   * Rows the statements every event runs wrote, per event — its receipt, its outbox row, its
   * step and its completion (pruning is DROP TABLE: none) — apart from what a shard writes per
   * minute or per generation whatever the traffic (metrics, registry, guard, generation tables,
   * alarms), which this short run shares among few events.
   */
  eventPathRowsPerEvent: number | null;
  /**
   * One event on a fresh shard, before any pruning: counters read after its reply was delivered,
   * and the bytes its story adds to its receipt (storyBytes.ts; null without the look-up API).
   */
  oneEvent: { rowsWritten: number; alarmsSet: number; perStatement: Array<StatementCost>; storyBytes: number | null } | null;
  prices: typeof DURABLE_OBJECTS_PRICES;
  /** rowsPerEvent × the price per million rows written (beyond the monthly allowance). */
  rowsWrittenUsdPerMillionEvents: number;
}

/** The guard's tables (migrations/0003_watch.sql), as its statements name them. */
const GUARD_TABLES = /\b(answer_counts|guard_state)\b/;
/** The tables every event writes: its receipt (a generation's table) and its outbox row. */
const EVENT_PATH =
  /^(INSERT INTO receipts_|INSERT INTO outbox |UPDATE outbox |DELETE FROM outbox |DELETE FROM receipts_before_generations)/;
/** The persistent metrics' tables (migrations/0004_metrics.sql). */
const METRICS_TABLES = /\b(metric_minutes|shard_registry)\b/;

/** Rows the statements on `tables` wrote, per event (4 decimals); null without a per-statement tally. */
function rowsPerEventOf(perStatement: StatementCost[], tables: RegExp, events: number): number | null {
  if (perStatement.length === 0) return null;
  const rows = perStatement.filter((cost) => tables.test(cost.statement)).reduce((sum, cost) => sum + cost.rowsWritten, 0);
  return Math.round((rows / Math.max(events, 1)) * 10_000) / 10_000;
}

/** The workspaces the scenario sends to: one shard for the load, a fresh one for the single event. */
export const COST_WORKSPACES = ["TCOST", "TCOSTONE"] as const;

async function shardStats(subject: Subject, workspace: string): Promise<ShardStats> {
  const response = await fetch(new URL(`/admin/shards/${workspace}/0`, subject.runtime.url), {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (!response.ok) throw new Error(`admin API answered ${response.status}`);
  return (await response.json()) as ShardStats;
}

async function statementCosts(subject: Subject): Promise<StatementCost[]> {
  const response = await fetch(new URL("/bench/statements", subject.runtime.url));
  return response.ok ? ((await response.json()) as StatementCost[]) : [];
}

/** Per-statement costs accrued between two readings of the (isolate-wide) tally. */
function costsSince(before: StatementCost[], after: StatementCost[]): StatementCost[] {
  const earlier = new Map(before.map((cost) => [cost.statement, cost]));
  return after
    .map((cost) => ({
      statement: cost.statement,
      calls: cost.calls - (earlier.get(cost.statement)?.calls ?? 0),
      rowsWritten: cost.rowsWritten - (earlier.get(cost.statement)?.rowsWritten ?? 0),
    }))
    .filter((cost) => cost.calls > 0)
    .sort((a, b) => b.rowsWritten - a.rowsWritten);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** Polls (a second apart) with no new row written before the shard counts as done. */
const STABLE_POLLS = 5;

/**
 * Rows written per accepted event, all costs included: `events` mentions to one shard of the
 * metered coordinator (started with a small RECEIPT_RETENTION_HOURS), then a bounded wait —
 * polling the shard, which also keeps its instance (and counters) alive — until every receipt
 * is pruned and the outbox is empty. Then one event on a fresh shard for a per-event breakdown.
 *
 * Runs the load now and returns `finish`, which awaits the pruning: other scenarios run meanwhile.
 */
export async function startRowsPerEvent(
  context: BenchContext,
  subject: Subject,
  options: {
    rate: number;
    durationMs: number;
    receiptRetentionHours: number;
    maxWaitMs: number;
  },
): Promise<() => Promise<RowsPerEvent>> {
  const [workspace, fresh] = COST_WORKSPACES;
  const tallyBefore = await statementCosts(subject);
  const run = await runAtRate(context, subject, { rate: options.rate, durationMs: options.durationMs, workspaces: [workspace] });
  const started = Date.now();
  let waitedS = 0;
  // The last reading: once done, the shard may be evicted (and its in-memory counters with it).
  let latest = await shardStats(subject, workspace);
  const poll = (async () => {
    // Done when nothing is left to prune or deliver AND the shard has written nothing for a few
    // polls: pruning goes on in 500-row batches a second apart, whatever `receipts` counts.
    const written: number[] = [];
    while (Date.now() - started < options.maxWaitMs) {
      const stats = await shardStats(subject, workspace);
      latest = stats;
      written.push(stats.counters.rowsWritten);
      waitedS = Math.round((Date.now() - started) / 1000);
      const still = written.length >= STABLE_POLLS && written.slice(-STABLE_POLLS).every((n) => n === stats.counters.rowsWritten);
      if (stats.receipts === 0 && stats.outbox.pending === 0 && still) return true;
      await sleep(1000);
    }
    return false;
  })();

  return async () => {
    const pruned = await poll;
    const perStatement = costsSince(tallyBefore, await statementCosts(subject));
    const { accepted, rowsWritten, alarmsSet } = latest.counters;
    const tallied = perStatement.reduce((sum, cost) => sum + cost.rowsWritten, 0);
    const rowsPerEvent = accepted > 0 ? (rowsWritten + alarmsSet) / accepted : 0;

    const tallyBeforeOne = await statementCosts(subject);
    const one = await runAtRate(context, subject, { rate: 1, durationMs: 1000, workspaces: [fresh] });
    const oneStats = one.acked === 1 ? await shardStats(subject, fresh) : undefined;
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      events: run.acked,
      rate: options.rate,
      receiptRetentionHours: options.receiptRetentionHours,
      pruned,
      waitedS,
      countersComplete: accepted === run.acked,
      rowsWritten,
      alarmsSet,
      talliedRowsWritten: tallied,
      rowsPerEvent: round(rowsPerEvent),
      perStatement: perStatement.map((cost) => ({ ...cost, rowsPerEvent: round(cost.rowsWritten / Math.max(accepted, 1)) })),
      guardRowsPerEvent: rowsPerEventOf(perStatement, GUARD_TABLES, run.acked),
      metricsRowsPerEvent: rowsPerEventOf(perStatement, METRICS_TABLES, run.acked),
      eventPathRowsPerEvent: rowsPerEventOf(perStatement, EVENT_PATH, accepted),
      oneEvent: oneStats
        ? {
            rowsWritten: oneStats.counters.rowsWritten,
            alarmsSet: oneStats.counters.alarmsSet,
            perStatement: costsSince(tallyBeforeOne, await statementCosts(subject)),
            storyBytes: await storyBytes(subject, fresh),
          }
        : null,
      prices: DURABLE_OBJECTS_PRICES,
      rowsWrittenUsdPerMillionEvents: round(rowsPerEvent * DURABLE_OBJECTS_PRICES.rowsWrittenUsdPerMillion),
    };
  };
}
