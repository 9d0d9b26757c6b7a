import type { StreamFigures } from "../scenarios/streams";
import type { LatencySummary } from "./latency";

const ms = (s: LatencySummary) => `p50 ${s.p50 ?? "–"} / p99 ${s.p99 ?? "–"} / max ${s.max ?? "–"} ms (${s.count})`;

/** The stream figures, as `npm run bench` prints them. */
export function printStreams(figures: StreamFigures): void {
  const { plan, atRate, concurrent } = figures;
  console.log(
    `\n== streamed replies (sayStream, pacing on, the fake holding each workspace's token to Slack's tiers): count to ${plan.n}, one number per append every ${plan.pauseMs} ms`,
  );
  console.log(
    `  ${plan.perMinute}/min over ${plan.workspaces} workspaces: ${atRate.acked}/${atRate.streams} acked, ${atRate.complete} complete, ${atRate.rateLimited} × 429, all done ${atRate.allDoneS ?? "NOT within the wait"} s after the first`,
  );
  console.log(`    handler's first append → Slack receives it: ${ms(atRate.firstAppendToSlack)}`);
  console.log(`      of which the handler until its first flush is due: ${ms(atRate.bufferFill)}`);
  console.log(`      and the streamer's own (checkpoint, pacing, the call): ${ms(atRate.flushToSlack)}`);
  console.log(
    `    rows written per streamed reply: ${atRate.rowsPerReply ?? "– (a shard's counters restarted)"} (${atRate.rowsWritten} rows + ${atRate.alarmsSet} alarms); calls ${JSON.stringify(atRate.callsByMethod)}`,
  );
  console.log(
    `  ${concurrent.streams} concurrent streams in one workspace: ${concurrent.acked} acked, ${concurrent.complete} complete, ${concurrent.rateLimited} × 429, at most ${concurrent.startsInAnyMinute} chat.startStream in any 60 s, all done ${concurrent.allDoneS ?? "NOT within the wait"} s after the requests`,
  );
  console.log(
    `    requests → each stream's first text at Slack: ${ms(concurrent.firstText)}; calls ${JSON.stringify(concurrent.callsByMethod)}`,
  );
}
