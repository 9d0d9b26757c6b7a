import type { ChaosVerdict } from "./verifyDelivery";
import { type StreamVerdict, streamsHeld } from "./verifyStreams";

export interface ChaosSummary {
  durationS: number;
  outages: Array<{ atS: number; downS: number | null }>;
  quiescent: boolean;
  outbox: { pending: number; parked: number };
  verdict: ChaosVerdict & { lostCount: number; unfinishedCount: number };
  streams: StreamVerdict & { interruptedStarts: number };
  /** Plain answers that slept durably between placeholder and answer: how many, acked, and of those lost or unfinished. */
  sleeps: { events: number; acked: number; lost: number; unfinished: number };
}

/** What a chaos run must show: nothing lost, unfinished or posted twice, quiescent, streams whole. */
export function chaosHeld(results: ChaosSummary): boolean {
  const v = results.verdict;
  return (
    v.lostCount === 0 && v.unfinishedCount === 0 && v.duplicates.events === 0 && results.quiescent && streamsHeld(results.streams)
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
  console.log(
    `  outbox at the end: ${results.outbox.pending} pending, ${results.outbox.parked} parked${results.quiescent ? "" : " — NOT quiescent in time"}`,
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
    `  streams LOST ${s.lost}, incomplete ${s.incomplete}, duplicated ${s.duplicated}, garbled ${s.garbled}, FROZEN messages ${s.frozen}; interrupted starts a retry did not find ${s.interruptedStarts}`,
  );
  for (const failure of s.failures.slice(0, 3)) console.log(`    e.g. ${JSON.stringify(failure).slice(0, 400)}`);
  console.log(
    chaosHeld(results)
      ? "  PASS: every acked event's reply was delivered once, every acked streamed request has its complete answer, none frozen"
      : "  FAIL",
  );
}
