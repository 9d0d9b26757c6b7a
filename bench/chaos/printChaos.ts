import type { PendingRow } from "./pendingRows";
import type { ReplyDelays } from "./replyDelays";
import type { OutageReport } from "./slackOutage";
import type { StreamAttempts } from "./streamAttempts";
import type { ChaosVerdict } from "./verifyDelivery";
import { type StreamVerdict, streamsHeld } from "./verifyStreams";

export interface ChaosSummary {
  durationS: number;
  outages: Array<{ atS: number; downS: number | null }>;
  /** Slack's outage under the load: the backlog's peak and its drain. */
  outage: OutageReport;
  /** Replies from ack to post, and the slowest each SIGKILL caught. */
  replyDelays: ReplyDelays;
  quiescent: boolean;
  /** Seconds from the load's end (Slack's retries done) to no pending outbox row; null when not quiescent. */
  quiescentAfterS: number | null;
  outbox: { pending: number; parked: number };
  /** Not quiescent: the rows still pending (at most 50), from the admin API. */
  pending: PendingRow[];
  verdict: ChaosVerdict & { lostCount: number; unfinishedCount: number };
  streams: StreamVerdict & { interruptedStarts: number; attempts: StreamAttempts };
  /** Plain answers that slept durably between placeholder and answer: how many, acked, and of those lost or unfinished. */
  sleeps: { events: number; acked: number; lost: number; unfinished: number };
}

/** What a chaos run must show: nothing lost, unfinished or posted twice, quiescent, streams whole; and Slack's outage did happen. */
export function chaosHeld(results: ChaosSummary): boolean {
  const v = results.verdict;
  return (
    v.lostCount === 0 &&
    v.unfinishedCount === 0 &&
    v.duplicates.events === 0 &&
    results.quiescent &&
    streamsHeld(results.streams) &&
    results.outage.refusedCalls > 0
  );
}

/** The outage's and the kills' lines of the summary. */
function printDelays({ outage: o, replyDelays: d }: ChaosSummary): void {
  const s = (n: number | null) => (n === null ? "–" : `${n} s`);
  console.log(
    `  Slack outage ${o.fromS}–${o.toS} s (${o.plan.status} ${o.plan.error} to ${o.refusedCalls} Web API calls): backlog peak ${o.peakDepth ?? "–"} pending rows at ${s(o.peakAtS)} (at most ${o.depthBefore ?? "–"} in the 10 s before); back to that ${s(o.depthDrainedS)} after Slack recovered; the ${o.heldReplies} replies it held all posted by ${s(o.repliesDrainedS)} after`,
  );
  console.log(
    `  reply delay, ack to post: p50 ${d.all.p50} ms, p99 ${d.all.p99} ms, max ${d.all.max} ms (${d.all.count} replies)`,
  );
  const kills = d.kills.map(
    (k) => `${k.atS} s: ${k.caught} caught (${k.heldByOutage} held by the outage too), slowest other ${s(k.slowestS)}`,
  );
  console.log(
    `  slowest reply after a SIGKILL: ${s(d.slowestAfterKillS)} (${s(d.slowestCaughtS)} with those the outage held too); by kill: ${kills.join("; ")}`,
  );
}

/** The human summary of a chaos run (the JSON file has everything). */
export function printChaos(results: ChaosSummary): void {
  const v = results.verdict;
  console.log(`\n== chaos summary (${results.durationS} s)`);
  console.log(
    `  events ${v.events}: acked ${v.acked}, never acked ${v.neverAcked} (of which delivered anyway: ${v.neverAckedButDelivered}); Slack retries sent ${v.retries}`,
  );
  console.log(
    `  runtime SIGKILLed ${results.outages.length}×, down ${results.outages.map((o) => `${o.downS ?? "?"} s`).join(", ")}`,
  );
  console.log(
    `  fake Slack calls ${v.fakeCalls.total}: ${Object.entries(v.fakeCalls.byOutcome)
      .map(([outcome, n]) => `${outcome} ${n}`)
      .join(", ")}`,
  );
  printDelays(results);
  console.log(
    `  outbox at the end: ${results.outbox.pending} pending, ${results.outbox.parked} parked${results.quiescent ? `, quiescent ${results.quiescentAfterS} s after the load` : " — NOT quiescent in time"}`,
  );
  for (const row of results.pending.slice(0, 10))
    console.log(
      `    pending ${row.key} (${row.effect}): ${row.attempts} attempts, last error ${row.lastError ?? "–"}; last attempt's calls: ${row.lastCalls.join(", ") || "–"}`,
    );
  console.log(
    `  LOST (acked, reply never delivered): ${v.lostCount}${v.lostCount ? `  e.g. ${JSON.stringify(v.lost.slice(0, 3))}` : ""}`,
  );
  console.log(`  unfinished (reply posted, never updated): ${v.unfinishedCount}`);
  const z = results.sleeps;
  console.log(
    `  durable sleeps (placeholder, sleep, answer) ${z.events}: acked ${z.acked}, of which lost ${z.lost}, unfinished ${z.unfinished} (counted above too)`,
  );
  console.log(
    `  DUPLICATES (a reply posted twice into one thread): ${v.duplicates.events} event(s) with ${v.duplicates.extraPosts} extra post(s)`,
  );
  for (const [cause, n] of Object.entries(v.duplicates.byCause)) console.log(`    ${n} × ${cause}`);
  console.log(`  repeated chat.update of one message (harmless): ${v.repeatedUpdates}`);
  console.log(`  lookups of uncertain posts: ${v.lookups.made} history reads, ${v.lookups.answered} answered`);
  const s = results.streams;
  console.log(
    `  streamed requests ${s.events}: acked ${s.acked}, complete ${s.complete} (${s.messages} messages, ${s.chains} answers continued in more than one)`,
  );
  console.log(
    `  streams LOST ${s.lost}, incomplete ${s.incomplete}, duplicated ${s.duplicated}, garbled ${s.garbled}, FROZEN messages ${s.frozen}; of those wrong, ${s.settledWrong} with their run done (${s.attempts.unsettled.length} runs still retrying); interrupted starts a retry did not find ${s.interruptedStarts}`,
  );
  const lostAnswers = Object.entries(s.lostAnswers).map(([method, n]) => `${method} ${n}`);
  console.log(`  stream calls applied, their answer lost: ${lostAnswers.join(", ") || "none"}`);
  const a = s.attempts;
  console.log(
    `  streamed answers' attempts (${a.answers} read back): p50 ${a.attempts.p50}, p90 ${a.attempts.p90}, max ${a.attempts.max}, total ${a.attempts.total}; ${a.callsPerAttempt} calls per attempt; failed attempts ended by: ${a.endedBy.map(([why, n]) => `${n} × ${why}`).join("; ")}`,
  );
  for (const failure of s.failures.slice(0, 3)) console.log(`    e.g. ${JSON.stringify(failure).slice(0, 400)}`);
  console.log(
    chaosHeld(results)
      ? "  PASS: every acked event's reply was delivered once, every acked streamed request has its complete answer, none frozen"
      : "  FAIL",
  );
}
