import type { CycleRows } from "../scenarios/waitRows";
import type { WaitFigures } from "../scenarios/waits";
import type { LatencySummary } from "./latency";
import { formatTable } from "./table";

const indent = (text: string) => text.replace(/^/gm, "  ").replace(/ +$/gm, "");
const cells = (s: LatencySummary) => [s.count, s.p50, s.p99, s.max];

function cycleTable(rows: CycleRows): string {
  return formatTable(
    ["rows per cycle", "statement"],
    rows.perStatement.map((cost) => [
      cost.perCycle,
      cost.statement.length > 100 ? `${cost.statement.slice(0, 99)}…` : cost.statement,
    ]),
  );
}

/** The durable-waits figures (issue 30, point 7), as `npm run bench -- --waits` prints them. */
export function printWaits(figures: WaitFigures): void {
  const { plan, idle, loaded, ratio, clicks, timers, rows } = figures;
  console.log(
    `\n== durable waits: the demo (AGENT_SESSIONS=true, DEMO_COUNT_INTERVAL_MS=${plan.countIntervalMs}, pacing off), one workspace, ms`,
  );
  console.log(
    `  "beside" = with ${loaded.questionsWaiting} runs waiting for a click (count to ${plan.questionCount}, session suspended) and ${loaded.sleepersAsleep} asleep (${plan.sleepersS} s, session active); outbox pending ${loaded.outboxPending ?? "–"}`,
  );
  console.log(
    indent(
      formatTable(
        ["count to 40, one after another", "idle p50", "p99", "beside p50", "p99", "ratio p50", "ratio p99"],
        [
          [
            "mention's ack → chat.startStream",
            idle.toFirstStreamCall.p50,
            idle.toFirstStreamCall.p99,
            loaded.toFirstStreamCall.p50,
            loaded.toFirstStreamCall.p99,
            ratio.toFirstStreamCall.p50,
            ratio.toFirstStreamCall.p99,
          ],
          [
            "mention's ack → chat.stopStream",
            idle.toStop.p50,
            idle.toStop.p99,
            loaded.toStop.p50,
            loaded.toStop.p99,
            ratio.toStop.p50,
            ratio.toStop.p99,
          ],
        ],
      ),
    ),
  );
  console.log(`  (${idle.answered} and ${loaded.answered} answers; with ${plan.answers} a set, p99 is its slowest)\n`);
  console.log(
    indent(
      formatTable(
        ["resume", "n", "p50", "p99", "max"],
        [
          [`click "no" sent → its 200 (one every ${plan.clickEveryMs} ms)`, ...cells(clicks.ack)],
          ["click sent → the resumed run's chat.startStream", ...cells(clicks.toResume)],
          ["click sent → that answer's chat.stopStream", ...cells(clicks.toStop)],
          [`timer lateness: "Reminder" at Slack − (ack + S), S ${plan.timerMinS}–${plan.timerMaxS} s`, ...cells(timers.lateness)],
        ],
      ),
    ),
  );
  console.log(
    `  clicks acked ${clicks.acked}/${clicks.sent}; reminders posted ${timers.reminded}/${timers.sent}; sleepers still asleep after the clicks ${clicks.sleepersStillAsleep}/${loaded.sleepersAsleep}`,
  );
  if (!rows) {
    console.log("  rows per wait: not measured");
  } else {
    console.log(
      `\n  rows written + alarms set per cycle (metered build of the same code, ${rows.question.cycles} cycles each, per-minute tables apart):`,
    );
    console.log(
      indent(
        formatTable(
          ["cycle", "rows", "of which alarms", "waits table"],
          [rows.question, rows.questionless, rows.sleep, rows.sleepless].map((cycle) => [
            cycle.kind,
            cycle.rowsPerCycle,
            Math.round((cycle.alarmsSet / cycle.cycles) * 100) / 100,
            cycle.waitsTableRows,
          ]),
        ),
      ),
    );
    console.log(
      `  a question → click → resume costs ${rows.waitCosts} rows beyond the same run without it (+ its waits row's DELETE when pruned, a day after its deadline); a sleep → wake ${rows.sleepCosts}`,
    );
    for (const cycle of [rows.question, rows.questionless, rows.sleep, rows.sleepless]) {
      console.log(`\n  ${cycle.kind}, by statement:`);
      console.log(indent(indent(cycleTable(cycle))));
    }
  }
  console.log(`\n  wall time ${figures.wallS} s; coordinator errors logged: ${figures.coordinatorLogErrors.length}`);
}
