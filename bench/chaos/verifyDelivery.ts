import { effectsByThread } from "../effects/threadEffects";
import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import type { Notable } from "./coordinatorProcess";
import type { TrafficEvent } from "./slackTraffic";

export interface Outage {
  killedAt: number;
  readyAt: number | null;
}

export interface ChaosVerdict {
  events: number;
  /** Answered 2xx by the coordinator on some attempt. */
  acked: number;
  /** Every attempt failed (killed, 5xx, timeout): Slack gave up. Not "lost": Slack was never told 200. */
  neverAcked: number;
  neverAckedButDelivered: number;
  /** How Slack's attempts failed for never-acked events (first few), with outage times, for diagnosis. */
  neverAckedExamples: Array<{
    eventId: string;
    attempts: Array<{ retryNum: number; sentAt: number; settledAt: number; status?: number; failure?: string }>;
  }>;
  /** Slack retries sent (attempts after the first). */
  retries: number;
  /** Acked events whose reply never reached the fake Web API: must be 0. */
  lost: Array<{ eventId: string; thread: string; calls: number; notes: string[] }>;
  /** Acked events whose reply was posted but never updated, when the app updates its replies. */
  unfinished: Array<{ eventId: string; thread: string }>;
  /** Replies posted more than once into one thread, with their likely cause. */
  duplicates: {
    events: number;
    extraPosts: number;
    byCause: Record<string, number>;
    examples: Array<{ eventId: string; thread: string; cause: string; gapMs: number }>;
  };
  /** chat.update repeated on the same message: idempotent by shape, so invisible to users. */
  repeatedUpdates: number;
  /** History reads made to look for uncertain posts (conversations.replies / .history), and how many Slack answered. */
  lookups: { made: number; answered: number };
  fakeCalls: { total: number; byOutcome: Record<string, number> };
}

/** The coordinator's warnings that an uncertain post is sent again (at least once), and the cause each names. */
const POSTED_AGAIN: ReadonlyArray<[string, string]> = [
  [
    "an uncertain post's lookup could not be made",
    "its lookup was given up (SLACK_HISTORY_MAX_WAIT_MS passed while Slack's reads failed or waited), so it was posted again",
  ],
  ["an uncertain post was not found in the pages read", "its lookup did not find it in the pages read, so it was posted again"],
];

/** Why a reply was posted twice, from what happened between the two posts. */
function causeOfDuplicate(
  first: ServedCall,
  again: ServedCall,
  outages: readonly Outage[],
  notes: readonly Notable[],
  leaseMs: number,
): string {
  // Said by the coordinator as it posted again (attemptPosts.ts): the direct cause, whatever else happened between.
  const postedAgain = notes.find(
    (n) => n.at >= first.receivedAt && n.at <= again.receivedAt + 1000 && POSTED_AGAIN.some(([said]) => n.msg.startsWith(said)),
  );
  if (postedAgain) return POSTED_AGAIN.find(([said]) => postedAgain.msg.startsWith(said))![1];
  // The fake stamps a call when this process gets to it, which can be a little after a kill
  // ordered by this same process although workerd sent it before dying: allow a second for that.
  if (outages.some((o) => o.killedAt > first.receivedAt - 1000 && o.killedAt < again.receivedAt)) {
    return "runtime killed after Slack performed the call, before the completion was recorded";
  }
  if (first.outcome !== "ok") return `Slack posted it and its answer was lost (${first.outcome}), and the retry posted again`;
  if (notes.some((n) => n.msg.startsWith("fence rejected")))
    return "lease expired mid-call (the stale attempt's settle was fenced out)";
  const between = notes.filter(
    (n) => n.at >= first.receivedAt && n.at <= again.receivedAt + 1000 && n.msg === "effect will be retried",
  );
  if (between.some((n) => n.reason === "timeout"))
    return "call timed out (DELIVERY_TIMEOUT_MS) although Slack performed it: the answer came too late";
  if (between.length > 0) return `retried after: ${between[0]!.reason}`;
  // Nothing logged, and the second post came within one lease of the first: the row was re-claimed
  // by the sweep while the first attempt still held it (waiting its turn in a batch, or running);
  // that attempt's later writes were fenced out without a log line.
  if (again.receivedAt - first.receivedAt <= leaseMs + 1000)
    return "probably re-claimed after its lease (LEASE_MS) expired while the first attempt was still queued or running";
  return "unexplained";
}

/**
 * Log lines by the event they concern. Outbox keys start with the dedupe key (`Ev…:name`) or,
 * for effects scoped to the message, with its fact key (`team:channel:ts:name`).
 */
function notesByEvent(notable: readonly Notable[]): (event: TrafficEvent) => Notable[] {
  const index = new Map<string, Notable[]>();
  const add = (prefix: string, note: Notable) => {
    const notes = index.get(prefix);
    if (notes) notes.push(note);
    else index.set(prefix, [note]);
  };
  for (const note of notable) {
    if (!note.key) continue;
    const parts = note.key.split(":");
    add(parts[0]!, note);
    if (parts.length > 3) add(parts.slice(0, 3).join(":"), note);
  }
  return (event) => {
    const [channel, ts] = event.thread.split("|");
    return [...(index.get(event.eventId) ?? []), ...(index.get(`${event.workspace}:${channel}:${ts}`) ?? [])];
  };
}

/** Checks every acked event's reply against what the fake Web API performed, and explains duplicates. */
export function verifyDelivery(
  events: readonly TrafficEvent[],
  calls: readonly ServedCall[],
  outages: readonly Outage[],
  notable: readonly Notable[],
  leaseMs: number,
  threadTsOf?: (channel: string, ts: string) => string | undefined,
): ChaosVerdict {
  const threads = effectsByThread(calls, threadTsOf);
  const reads = calls.filter((call) => call.method === "conversations.replies" || call.method === "conversations.history");
  const notesOf = notesByEvent(notable);
  const appUpdates = calls.some((call) => call.method === "chat.update");
  const verdict: ChaosVerdict = {
    events: events.length,
    acked: 0,
    neverAcked: 0,
    neverAckedButDelivered: 0,
    neverAckedExamples: [],
    retries: 0,
    lost: [],
    unfinished: [],
    duplicates: { events: 0, extraPosts: 0, byCause: {}, examples: [] },
    repeatedUpdates: 0,
    lookups: { made: reads.length, answered: reads.filter((call) => call.outcome === "ok").length },
    fakeCalls: { total: calls.length, byOutcome: {} },
  };
  for (const call of calls) verdict.fakeCalls.byOutcome[call.outcome] = (verdict.fakeCalls.byOutcome[call.outcome] ?? 0) + 1;

  for (const event of events) {
    const effects = threads.get(event.thread);
    const posts = effects?.posts ?? [];
    verdict.retries += Math.max(0, (event.result?.attempts.length ?? 1) - 1);
    const notes = notesOf(event);
    if (!event.result?.acked) {
      verdict.neverAcked++;
      if (posts.length > 0) verdict.neverAckedButDelivered++;
      if (verdict.neverAckedExamples.length < 10)
        verdict.neverAckedExamples.push({ eventId: event.eventId, attempts: event.result?.attempts ?? [] });
    } else {
      verdict.acked++;
      if (posts.length === 0) {
        verdict.lost.push({
          eventId: event.eventId,
          thread: event.thread,
          calls: effects?.calls.length ?? 0,
          notes: notes.map((n) => n.msg),
        });
        continue;
      }
      if (appUpdates && (effects?.updates.length ?? 0) === 0)
        verdict.unfinished.push({ eventId: event.eventId, thread: event.thread });
    }
    if (posts.length > 1) {
      verdict.duplicates.events++;
      for (let i = 1; i < posts.length; i++) {
        verdict.duplicates.extraPosts++;
        const cause = causeOfDuplicate(posts[i - 1]!, posts[i]!, outages, notes, leaseMs);
        verdict.duplicates.byCause[cause] = (verdict.duplicates.byCause[cause] ?? 0) + 1;
        if (verdict.duplicates.examples.length < 20) {
          verdict.duplicates.examples.push({
            eventId: event.eventId,
            thread: event.thread,
            cause,
            gapMs: Math.round(posts[i]!.receivedAt - posts[i - 1]!.receivedAt),
          });
        }
      }
    }
    const updated = new Set<string>();
    for (const update of effects?.updates ?? []) {
      if (updated.has(update.ts!)) verdict.repeatedUpdates++;
      updated.add(update.ts!);
    }
  }
  return verdict;
}
