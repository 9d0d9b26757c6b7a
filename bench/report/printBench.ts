import type { MaxSustained } from "../scenarios/maxSustained";
import type { OAuthOverhead } from "../scenarios/oauthOverhead";
import type { RelayOverhead } from "../scenarios/relayOverhead";
import type { RowsPerEvent } from "../scenarios/rowsPerEvent";
import type { RunResult } from "../scenarios/runAtRate";
import { SUSTAINED_RULE } from "../scenarios/sustained";
import type { SubjectLogs } from "../subjects";
import { formatTable } from "./table";
import type { TargetVerdict } from "./targets";

export interface BenchSummary {
  cpuPerEvent: {
    rate: number;
    floor: number | null;
    ingestOnly: number | null;
    coordinator: number | null;
    slackEdge: number | null;
    slackEdgeSameWork: number | null;
  };
  fixed: RunResult[];
  maxSustained: Partial<Record<string, MaxSustained>>;
  scaling: Array<{ workspaces: number; atRate: RunResult; maxSustained: MaxSustained | null }>;
  cost: RowsPerEvent;
  costOAuth: RowsPerEvent;
  oauthOverhead: OAuthOverhead;
  oauthUnsaturated: OAuthOverhead;
  relayOverhead: RelayOverhead;
  relayUnsaturated: RelayOverhead;
  targets: TargetVerdict[];
  runtimeLogs: Record<string, SubjectLogs>;
}

const times = (a: number | null | undefined, b: number | null | undefined) =>
  a != null && b != null && b > 0 ? `${(a / b).toFixed(2)}×` : null;

function runRow(r: RunResult) {
  return [
    r.subject,
    r.rate,
    r.workspaces,
    r.sent,
    r.non2xx,
    r.ack.p50,
    r.ack.p95,
    r.ack.p99,
    r.ack.max,
    r.delivery?.p50 ?? null,
    r.delivery?.p99 ?? null,
    r.completion?.p99 ?? null,
    // Older results.json files have no backlog.
    r.backlogS ?? null,
    r.sustained ? "yes" : "no",
    r.runtimeCpuMsPerEvent,
    r.generatorCpu,
  ];
}

const RUN_HEADERS = [
  "subject",
  "rate/s",
  "ws",
  "sent",
  "non-2xx",
  "ack p50",
  "p95",
  "p99",
  "max",
  "reply p50",
  "reply p99",
  "done p99",
  "owed s",
  "sustained",
  "cpu ms/ev",
  "gen cpu",
];

/** What the non-2xx of each run were (older results.json files have no `failures`). */
function printFailures(runs: RunResult[]): void {
  for (const r of runs.filter((run) => run.non2xx > 0 && run.failures)) {
    const causes = Object.entries(r.failures).map(([cause, n]) => `${n}× ${cause}`);
    console.log(`  non-2xx of ${r.subject} @ ${r.rate}/s, ${r.workspaces} ws: ${causes.join(", ")}`);
  }
}

/** The human summary of a bench run (the JSON file has everything). */
export function printBench(results: BenchSummary): void {
  console.log(
    `\n== ack latency at fixed offered rates (ms; reply = ack → fake Slack got the reply; done = ack → last effect call; owed = replies not yet received when the offered load ended, in seconds of it; sustained: ${SUSTAINED_RULE})`,
  );
  console.log(formatTable(RUN_HEADERS, results.fixed.map(runRow)));
  printFailures(results.fixed);
  for (const r of results.fixed.filter((run) => run.runtimeRestarted)) {
    console.log(
      `  ! ${r.subject} @ ${r.rate}/s: its workerd crashed during the run and Miniflare started a new one (see the note at the end)`,
    );
  }

  console.log("\n== ratios at the same offered load (ack latency)");
  const rates = [...new Set(results.fixed.map((r) => r.rate))];
  const at = (subject: string, rate: number) => results.fixed.find((r) => r.subject === subject && r.rate === rate);
  console.log(
    formatTable(
      [
        "rate/s",
        "ours/floor p50",
        "ours/floor p99",
        "ours/slack-edge p50",
        "ours/slack-edge p99",
        "ours/slack-edge same work p50",
        "ours/slack-edge same work p99",
      ],
      rates.map((rate) => {
        const ours = at("coordinator", rate);
        return [
          rate,
          times(ours?.ack.p50, at("floor", rate)?.ack.p50),
          times(ours?.ack.p99, at("floor", rate)?.ack.p99),
          times(ours?.ack.p50, at("slack-edge", rate)?.ack.p50),
          times(ours?.ack.p99, at("slack-edge", rate)?.ack.p99),
          times(ours?.ack.p50, at("slack-edge-same-work", rate)?.ack.p50),
          times(ours?.ack.p99, at("slack-edge-same-work", rate)?.ack.p99),
        ];
      }),
    ),
  );

  const cpu = results.cpuPerEvent;
  console.log(
    `\n== runtime CPU per event at ${cpu.rate}/s (workerd, ms): floor ${cpu.floor} · coordinator ingest only ${cpu.ingestOnly} · coordinator ${cpu.coordinator} · slack-edge ${cpu.slackEdge} · slack-edge same work ${cpu.slackEdgeSameWork}`,
  );
  if (cpu.floor !== null && cpu.ingestOnly !== null && cpu.coordinator !== null) {
    console.log(
      `   coordinator = floor ${cpu.floor} + durable record (RPC, receipt, ack) ${(cpu.ingestOnly - cpu.floor).toFixed(2)} + delivering the effects ${(cpu.coordinator - cpu.ingestOnly).toFixed(2)}`,
    );
  }

  console.log(`\n== highest sustained rate (${SUSTAINED_RULE})`);
  console.log(
    formatTable(
      ["subject", "events/s", "steps tried (rate ✓/✗: ack p99 · reply p99 ms · replies owed at the end, s)"],
      Object.entries(results.maxSustained).map(([name, found]) => [
        name,
        found?.rate === null || !found ? "none" : `${found.capped ? "≥ " : ""}${found.rate}`,
        found?.steps
          .map((s) => `${s.rate}${s.sustained ? "✓" : "✗"}: ${s.ack.p99} · ${s.delivery?.p99 ?? "–"} · ${s.backlogS ?? "–"}`)
          .join(", ") ?? null,
      ]),
    ),
  );

  console.log("\n== scaling across workspaces (coordinator)");
  console.log(
    formatTable(
      ["workspaces", "rate/s", "non-2xx", "ack p50", "ack p99", "reply p99", "max sustained/s"],
      results.scaling.map((s) => [
        s.workspaces,
        s.atRate.rate,
        s.atRate.non2xx,
        s.atRate.ack.p50,
        s.atRate.ack.p99,
        s.atRate.delivery?.p99 ?? null,
        s.maxSustained
          ? s.maxSustained.rate === null
            ? "none"
            : `${s.maxSustained.capped ? "≥ " : ""}${s.maxSustained.rate}`
          : null,
      ]),
    ),
  );

  const { cost } = results;
  console.log(
    `\n== rows written per event (${cost.events} events at ${cost.rate}/s, receipts kept ${cost.receiptRetentionHours} h, ${cost.pruned ? `all pruned after ${cost.waitedS} s` : "NOT all pruned in time"})`,
  );
  console.log(
    formatTable(
      ["statement", "calls", "rows", "rows/event"],
      [
        ...cost.perStatement
          .filter((s) => s.rowsWritten > 0)
          .map((s) => [s.statement.slice(0, 72), s.calls, s.rowsWritten, s.rowsPerEvent]),
        [
          "setAlarm (billed as one row each)",
          cost.alarmsSet,
          cost.alarmsSet,
          Math.round((cost.alarmsSet / Math.max(cost.events, 1)) * 100) / 100,
        ],
        ["total (rowsWritten + alarmsSet) / accepted", null, cost.rowsWritten + cost.alarmsSet, cost.rowsPerEvent],
      ],
    ),
  );
  if (!cost.countersComplete)
    console.log("  warning: the shard instance restarted during the scenario; its counters miss some events");
  if (cost.talliedRowsWritten > 0 && cost.talliedRowsWritten !== cost.rowsWritten) {
    console.log(`  warning: the shard counted ${cost.rowsWritten} rows written, its statements ${cost.talliedRowsWritten}`);
  }
  if (cost.eventPathRowsPerEvent !== null)
    console.log(
      `  of which every event's own statements: ${cost.eventPathRowsPerEvent} rows/event; the rest (${Math.round((cost.rowsPerEvent - cost.eventPathRowsPerEvent) * 1000) / 1000}/event here) is written per shard and minute or generation whatever the traffic`,
    );
  if (cost.oneEvent)
    console.log(
      `  one event on a fresh shard, before pruning: ${cost.oneEvent.rowsWritten} rows + ${cost.oneEvent.alarmsSet} alarm(s); its story keeps ${cost.oneEvent.storyBytes ?? "—"} bytes in its receipt and done rows (${cost.oneEvent.storyBytes === null ? "—" : Math.round(cost.oneEvent.storyBytes) / 1000} GB per million events)`,
    );
  console.log(
    `  at $${cost.prices.rowsWrittenUsdPerMillion} per million rows written (${cost.prices.source}, read ${cost.prices.readOn}): $${cost.rowsWrittenUsdPerMillionEvents} per million events, beyond the ${cost.prices.rowsWrittenIncludedPerMonth / 1e6} M rows/month included`,
  );

  for (const o of [results.oauthUnsaturated, results.oauthOverhead]) {
    console.log(
      `\n== OAuth mode vs single-workspace mode (${o.rate}/s, ${o.workspaces} installed workspaces, ${o.rounds} interleaved runs each)`,
    );
    console.log(formatTable(RUN_HEADERS, [...o.single, ...o.oauth].map(runRow)));
    printFailures([...o.single, ...o.oauth]);
    console.log(
      `   median ack p50 ${o.ackP50.oauth} vs ${o.ackP50.single} ms, p99 ${o.ackP99.oauth} vs ${o.ackP99.single} ms (${o.p99Ratio}×); installations changed during the runs: ${o.installationsWritten}`,
    );
  }
  for (const r of [results.relayUnsaturated, results.relayOverhead]) {
    console.log(
      `\n== relay mode vs the embedded example (${r.rate}/s, ${r.embedded[0]?.workspaces ?? "?"} workspaces, ${r.rounds} interleaved runs each)`,
    );
    console.log(formatTable(RUN_HEADERS, [...r.embedded, ...r.relay].map(runRow)));
    printFailures([...r.embedded, ...r.relay]);
    console.log(
      `   median ack p50 ${r.ackP50.relay} vs ${r.ackP50.embedded} ms, p99 ${r.ackP99.relay} vs ${r.ackP99.embedded} ms (${r.p99Ratio}×); CPU ${r.cpuMsPerEvent.relay} vs ${r.cpuMsPerEvent.embedded} ms/event; relayed request p99 ${r.deliveryP99.relay} ms after the ack (embedded reply p99 ${r.deliveryP99.embedded} ms)`,
    );
  }
  console.log(
    `   the auto-disable guard's rows per event (cost scenario, all answers 2xx): ${results.cost.guardRowsPerEvent ?? "not measured"}; persistent metrics': ${results.cost.metricsRowsPerEvent ?? "not measured"}`,
  );
  const c = results.costOAuth;
  console.log(
    `   rows written per event in OAuth mode (same cost scenario): ${c.rowsPerEvent} (${c.pruned ? "all pruned" : "NOT all pruned"}); by statement: ${c.perStatement
      .filter((s) => s.rowsWritten > 0)
      .map((s) => `${s.statement.slice(0, 28)}… ${s.rowsPerEvent}`)
      .join(" · ")}`,
  );

  console.log("\n== targets (issues 5 and 10)");
  console.log(
    formatTable(
      ["", "target", "measured"],
      results.targets.map((t) => [t.met ? "met" : "MISSED", t.target, t.measured]),
    ),
  );

  const problems = Object.entries(results.runtimeLogs).filter(
    ([, logs]) => logs.errors > 0 || logs.blockedOutbound > 0 || logs.runtimeRestarts > 0,
  );
  for (const [name, logs] of problems) {
    console.log(
      `  note: ${name}: ${logs.errors} error line(s), ${logs.blockedOutbound} blocked outbound call(s), workerd restarted ${logs.runtimeRestarts}×; first error: ${logs.firstErrors[0]?.split("\n")[0] ?? "–"}`,
    );
  }
}
