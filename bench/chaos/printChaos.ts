import type { ChaosVerdict } from "./verifyDelivery";

export interface ChaosSummary {
  durationS: number;
  outages: Array<{ atS: number; downS: number | null }>;
  quiescent: boolean;
  outbox: { pending: number; parked: number };
  verdict: ChaosVerdict & { lostCount: number; unfinishedCount: number };
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
  console.log(`  duplicates: ${v.duplicates.events} event(s) with ${v.duplicates.extraPosts} extra post(s)`);
  for (const [cause, n] of Object.entries(v.duplicates.byCause)) console.log(`    ${n} × ${cause}`);
  console.log(`  repeated chat.update of one message (harmless): ${v.repeatedUpdates}`);
  console.log(
    v.lostCount === 0 && v.unfinishedCount === 0 && results.quiescent
      ? "  PASS: every acked event's reply was delivered"
      : "  FAIL",
  );
}
