import type { EventStory } from "../../src/rpc/eventStories";
import type { TrafficEvent } from "./slackTraffic";

/** How many attempts the streamed answers took, and what ended those that failed: counts, not times. */
export interface StreamAttempts {
  /** Streamed answers whose story was read. */
  answers: number;
  /** Attempts per answer (its run row's failed attempts, plus the one that finished it). */
  attempts: { p50: number; p90: number; max: number; total: number };
  /** Web API calls per attempt, over the attempts the rows kept (the last KEPT_ATTEMPTS of each). */
  callsPerAttempt: number;
  /** The call (method and error) that failed each failed attempt kept, most frequent first. */
  endedBy: Array<[string, number]>;
  /** Event ids of the answers whose run row was not done when read: still retrying (or parked), not settled wrong. */
  unsettled: string[];
}

type Get = (path: string) => Promise<unknown>;

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Reads each acked streamed answer's story (`GET /admin/api/events/{id}`) and counts its run row's attempts and calls. */
export async function streamAttempts(get: Get, events: readonly TrafficEvent[]): Promise<StreamAttempts> {
  const attempts: number[] = [];
  const endedBy = new Map<string, number>();
  const unsettled: string[] = [];
  let calls = 0;
  let kept = 0;
  for (const event of events) {
    if (event.expected === undefined || !event.result?.acked) continue;
    const story = (await get(`/admin/api/events/${event.eventId}?workspace=${event.workspace}`).catch(() => undefined)) as
      | EventStory
      | undefined;
    const run = story?.effects.find((effect) => effect.effect === "run");
    if (!run) continue;
    if (run.status !== "done") unsettled.push(event.eventId);
    attempts.push((run.attempts ?? 0) + (run.status === "done" ? 1 : 0));
    for (const attempt of run.history) {
      kept++;
      calls += attempt.calls.length;
      if (attempt.outcome === "done") continue;
      const failed = attempt.calls.findLast((call) => !call.ok);
      // The error names the method; a timeout's own figure ("after 1000 ms") is left out so they count together.
      const why = (failed?.error ?? attempt.error ?? attempt.outcome).replace(/ after \d+ ms/, "");
      endedBy.set(why, (endedBy.get(why) ?? 0) + 1);
    }
  }
  const sorted = [...attempts].sort((a, b) => a - b);
  return {
    answers: attempts.length,
    attempts: { p50: at(sorted, 0.5), p90: at(sorted, 0.9), max: sorted.at(-1) ?? 0, total: sorted.reduce((a, b) => a + b, 0) },
    callsPerAttempt: kept === 0 ? 0 : Math.round((calls / kept) * 100) / 100,
    endedBy: [...endedBy].sort((a, b) => b[1] - a[1]).slice(0, 8),
    unsettled,
  };
}
