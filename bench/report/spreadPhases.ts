import { layoutAt } from "../../src/rpc/bucketLayouts";
import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import { threadOf } from "../load/mentions";
import type { Sample } from "../load/openLoop";
import { type LatencySummary, summarize } from "./latency";

/**
 * `npm run spread`'s figures (bench/spread.ts), as plain functions of what it recorded: each
 * thread's replies as the fake Web API saw them, and the load's samples split by the bucket
 * layout each event was routed under.
 */

/** What `npm run spread` keeps of a thread's replies: when the first came, and how many Slack performed. */
interface Replies {
  firstAt: number;
  posts: number;
}

/**
 * Each event thread's replies (chat.postMessage with its `thread_ts`), folded as the fake serves
 * them, so a run of minutes at 1,000+/s keeps one small entry per thread instead of every call.
 */
export class ReplyLedger {
  private readonly threads = new Map<string, Replies>();

  add(call: Pick<ServedCall, "method" | "channel" | "threadTs" | "applied" | "receivedAt">): void {
    if (call.method !== "chat.postMessage" || !call.channel || !call.threadTs || !call.applied) return;
    const thread = threadOf(call.channel, call.threadTs);
    const seen = this.threads.get(thread);
    if (seen) seen.posts++;
    else this.threads.set(thread, { firstAt: call.receivedAt, posts: 1 });
  }

  firstReplyAt(thread: string): number | undefined {
    return this.threads.get(thread)?.firstAt;
  }

  /** Threads with more than one reply performed: the event's reply posted twice. */
  duplicates(): { events: number; extraPosts: number } {
    let events = 0;
    let extraPosts = 0;
    for (const { posts } of this.threads.values())
      if (posts > 1) {
        events++;
        extraPosts += posts - 1;
      }
    return { events, extraPosts };
  }

  get replied(): number {
    return this.threads.size;
  }

  clear(): void {
    this.threads.clear();
  }
}

/** A layout as `npm run spread` read it from `GET /admin/workspaces/{id}/buckets`. */
export interface SeenLayout {
  buckets: number;
  effectiveAt: number;
  reason: string;
  busy?: number;
}

/** The events routed under one layout, and how they fared. */
export interface SpreadPhase {
  buckets: number;
  reason: string;
  busy?: number;
  /** When the layout took effect (ISO; the first phase's: when the load began, if later). */
  from: string;
  sent: number;
  acked: number;
  non2xx: number;
  /** From each request's scheduled send to its answer, ms. */
  ack: LatencySummary;
  /** From the ack to the event's first reply (the bench's "reply"), ms. */
  reply: LatencySummary;
  /** From the scheduled send to the first reply: the lag a user sees, ack included, ms. */
  lag: LatencySummary;
  /** Acked events of the phase with no reply by the end of the run. */
  undelivered: number;
}

/** The time an event is routed by: its message's `ts` (a thread is `{channel}|{ts}`, load/mentions.ts), in ms — as the edge reads it. */
export function routedAtOf(thread: string): number {
  const ts = Number(thread.slice(thread.lastIndexOf("|") + 1));
  return Math.floor(ts * 1000);
}

const isAcked = (sample: Pick<Sample, "status">) => sample.status >= 200 && sample.status < 300;

/**
 * The load's samples split by the layout in force at each event's routing time (the rule the
 * edge routes by: src/rpc/bucketLayouts.ts `layoutAt`), one phase per layout that routed any,
 * oldest first; SHARD_BUCKETS (`fallback`) before the first change.
 */
export function spreadPhases(
  samples: readonly Sample[],
  layouts: readonly SeenLayout[],
  fallback: number,
  firstReplyAt: (thread: string) => number | undefined,
): SpreadPhase[] {
  const ordered = [...layouts].sort((a, b) => a.effectiveAt - b.effectiveAt);
  // Only the count and the time matter here: the shard a key lands in is the edge's business.
  const asRouted = ordered.map(({ buckets, effectiveAt }) => ({
    buckets,
    effectiveAt,
    mixed: true,
    routing: "conversation" as const,
  }));
  const groups = new Map<number, Sample[]>();
  for (const sample of samples) {
    const layout = layoutAt(asRouted, routedAtOf(sample.thread), fallback);
    const group = groups.get(layout.effectiveAt) ?? [];
    group.push(sample);
    groups.set(layout.effectiveAt, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([effectiveAt, group], index) => {
      const seen = ordered.find((layout) => layout.effectiveAt === effectiveAt);
      const acked = group.filter(isAcked);
      const reply: number[] = [];
      const lag: number[] = [];
      for (const sample of acked) {
        const at = firstReplyAt(sample.thread);
        if (at === undefined) continue;
        reply.push(at - sample.settledAt);
        lag.push(at - sample.scheduledAt);
      }
      const firstSent = Math.min(...group.map((sample) => sample.scheduledAt));
      return {
        buckets: seen?.buckets ?? fallback,
        reason: seen?.reason ?? "manual",
        ...(seen?.busy === undefined ? {} : { busy: seen.busy }),
        from: new Date(index === 0 ? Math.max(effectiveAt, firstSent) : effectiveAt).toISOString(),
        sent: group.length,
        acked: acked.length,
        non2xx: group.length - acked.length,
        ack: summarize(group.map((sample) => sample.settledAt - sample.scheduledAt)),
        reply: summarize(reply),
        lag: summarize(lag),
        undelivered: acked.length - reply.length,
      };
    });
}

/** Acked events with no reply, and replies to events never acked (recorded, then the edge gave up waiting: Slack would retry them). */
export function replyTally(
  samples: readonly Sample[],
  firstReplyAt: (thread: string) => number | undefined,
): { acked: number; undelivered: number; repliedUnacked: number } {
  let acked = 0;
  let undelivered = 0;
  let repliedUnacked = 0;
  for (const sample of samples) {
    const replied = firstReplyAt(sample.thread) !== undefined;
    if (isAcked(sample)) {
      acked++;
      if (!replied) undelivered++;
    } else if (replied) repliedUnacked++;
  }
  return { acked, undelivered, repliedUnacked };
}
