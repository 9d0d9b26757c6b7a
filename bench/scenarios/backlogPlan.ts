import { textArgument } from "../runtime/cliArguments";

/** What `npm run bench -- --backlog` measures at each backlog size (bench/scenarios/backlog.ts). */
export interface BacklogPlan {
  /** Rows pending in the one shard when the measurement starts, each size on its own fresh state. */
  sizes: number[];
  /** Events a second to that shard, in every phase with load. */
  rate: number;
  /** Load right after the restart, while the new instance walks the outbox it inherited. */
  inheritMs: number;
  /** Load once every walk is complete, `steadyRounds` rounds of `steadyMs` per size, interleaved: the ack, CPU and rows figures. */
  steadyMs: number;
  steadyRounds: number;
  /** The walk must be complete within this long after the restart (else the size is reported without it). */
  walkMaxMs: number;
  /** The seeded leased rows stop at this many (an instance holds up to ~4,200 leases: 64 in flight, 4,096 in line). */
  leasedMax: number;
  /** Alarms with nothing due, run back to back (their CPU is below /proc's 10 ms tick one by one). */
  idleAlarms: number;
  /** Alarms that each claim and deliver `batch` rows made due just before (SWEEP_BATCH_SIZE's default). */
  batchAlarms: number;
  batch: number;
  /** The drain: at most this many waiting rows made due at once, from sizes of at least `drainFrom`. */
  drainRows: number;
  drainFrom: number;
  /** The drain is given at most this long; load runs beside it for `drainLoadMs`. */
  drainMaxMs: number;
  drainLoadMs: number;
  /** Keep each size's state under bench/.state/ (1M rows are ~4.7 GB); deleted after each size unless told. */
  keepState: boolean;
  deadlineMs: number;
}

export const BACKLOG_PLAN: BacklogPlan = {
  sizes: [0, 10_000, 100_000, 1_000_000],
  rate: 100,
  inheritMs: 10_000,
  steadyMs: 10_000,
  steadyRounds: 3,
  walkMaxMs: 120_000,
  leasedMax: 4_096,
  idleAlarms: 500,
  batchAlarms: 40,
  batch: 25,
  drainRows: 20_000,
  drainFrom: 10_000,
  drainMaxMs: 120_000,
  drainLoadMs: 10_000,
  keepState: false,
  deadlineMs: 28 * 60_000,
};

/** The plan with the command line's `--sizes 0,10000` and `--keep-state`. */
export function backlogPlanFromArguments(plan: BacklogPlan = BACKLOG_PLAN): BacklogPlan {
  const given = textArgument("sizes");
  const sizes = given === undefined ? plan.sizes : given.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 0 || n > 5_000_000))
    throw new Error("--sizes must be whole numbers from 0 to 5000000, comma-separated");
  return { ...plan, sizes, keepState: process.argv.includes("--keep-state") };
}
