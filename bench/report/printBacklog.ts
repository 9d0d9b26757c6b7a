import type { BacklogRun } from "../scenarios/backlog";
import { formatTable } from "./table";

const count = (n: number) => n.toLocaleString("en-US");
const ms = (n: number | null | undefined) =>
  n === null || n === undefined ? null : n >= 1000 ? count(Math.round(n)) : String(n);

/** Issue 40's targets: ack p99 at the largest size within 1.5× of the empty shard's and far under 2 s; rows per event ≤ 4. */
export function judgeBacklog(runs: readonly BacklogRun[]) {
  const p99Of = (run: BacklogRun | undefined) => run?.steady?.ack.p99 ?? null;
  const empty = runs.find((run) => run.size === 0);
  const largest = runs.reduce<BacklogRun | undefined>((top, run) => (top && top.size >= run.size ? top : run), undefined);
  const [p99Empty, p99Largest] = [p99Of(empty), p99Of(largest)];
  const ratio = p99Empty && p99Largest !== null ? Math.round((p99Largest / p99Empty) * 100) / 100 : null;
  const rows = runs.map((run) => run.steady?.rowsPerEvent ?? null).filter((n): n is number => n !== null);
  return {
    largestSize: largest?.size ?? null,
    ackP99: { empty: p99Empty, largest: p99Largest },
    ackP99Ratio: ratio,
    ackP99RatioMet: ratio !== null && ratio <= 1.5,
    ackP99UnderBudget: p99Largest !== null && p99Largest < 2000,
    maxRowsPerEvent: rows.length ? Math.max(...rows) : null,
    rowsPerEventMet: rows.length > 0 && Math.max(...rows) <= 4,
  };
}

/** The two tables of `npm run bench -- --backlog`: ingest at each size, then the alarm and the drain. */
export function printBacklog(runs: readonly BacklogRun[], rate: number): void {
  console.log(`\ningest at ${rate}/s into one shard holding a backlog (ack latency in ms from each request's scheduled time):`);
  console.log(
    formatTable(
      [
        "pending rows",
        "waiting/leased/parked",
        "seed s",
        "walk s",
        "while walking p50/p99, reply p99",
        "rows/ev",
        "ack p50",
        "p99",
        "max",
        "non-2xx",
        "reply p99",
        "CPU ms/ev",
        "rows/ev",
      ],
      runs.map(({ size, seeded, seedS, walkS, inherit, inheritRowsPerEvent, steady }) => [
        count(size),
        `${count(seeded.waiting)}/${count(seeded.leased)}/${count(seeded.parked)}`,
        seedS,
        walkS,
        `${ms(inherit.ack.p50)}/${ms(inherit.ack.p99)}, ${ms(inherit.delivery?.p99)}`,
        inheritRowsPerEvent,
        ms(steady?.ack.p50),
        ms(steady?.ack.p99),
        ms(steady?.ack.max),
        steady ? steady.non2xx + inherit.non2xx : null,
        ms(steady?.replyP99),
        steady?.cpuMsPerEvent ?? null,
        steady?.rowsPerEvent ?? null,
      ]),
    ),
  );
  console.log("\nthe alarm (workerd CPU ms per alarm) and the drain once Slack answers again:");
  console.log(
    formatTable(
      ["pending rows", "alarm, none due", "alarm claiming 25", "per row", "drain rows", "drained s", "rows/s", "ack p99 beside"],
      runs.map(({ size, alarms, drain }) => [
        count(size),
        alarms?.idleCpuMs ?? null,
        alarms?.batchCpuMs ?? null,
        alarms?.batchCpuMs == null ? null : Math.round((alarms.batchCpuMs / alarms.batch) * 1000) / 1000,
        drain ? `${count(drain.delivered)} of ${count(drain.rows)}` : null,
        drain?.seconds ?? null,
        drain?.perSecond ?? null,
        ms(drain?.during.ack.p99),
      ]),
    ),
  );
  const judged = judgeBacklog(runs);
  if (judged.largestSize !== null && judged.largestSize > 0)
    console.log(
      `\nack p99 (median of rounds) at ${count(judged.largestSize)} pending rows / at 0: ${ms(judged.ackP99.largest)} / ${ms(judged.ackP99.empty)} ms = ${judged.ackP99Ratio ?? "–"}× (target ≤ 1.5×: ${judged.ackP99RatioMet ? "met" : "missed"}); under the 2 s budget: ${judged.ackP99UnderBudget ? "yes" : "NO"}; steady rows per event at most ${judged.maxRowsPerEvent ?? "–"} (target ≤ 4: ${judged.rowsPerEventMet ? "met" : "missed"})`,
    );
}
