import type { ServedCall } from "../fakeSlack/fakeSlackServer";
import { highResNow } from "../load/clock";
import type { Subject } from "../subjects";
import { SEED_CHANNEL_PREFIX } from "../workers/backlogSql";
import type { BacklogShard } from "./backlogShard";
import type { BenchContext } from "./benchContext";
import { runAtRate } from "./runAtRate";

/**
 * Counts the seeded rows' replies as the fake Slack performs them (`onCall`: the bench's other
 * scenarios clear the fake's list between runs, this tally is its own). A seeded row posts into
 * one of the CBACKLOG channels; the load's replies go elsewhere.
 */
export class SeededReplies {
  private times: number[] = [];

  readonly onCall = (call: ServedCall): void => {
    if (call.method === "chat.postMessage" && call.applied && call.channel?.startsWith(SEED_CHANNEL_PREFIX))
      this.times.push(call.receivedAt);
  };

  get count(): number {
    return this.times.length;
  }

  reset(): void {
    this.times = [];
  }

  /** Waits (polling, bounded) until `rows` replies came, or nothing came for `quietMs` after the first, or `maxMs`. */
  async until(rows: number, maxMs: number, quietMs = 5_000): Promise<void> {
    const deadline = Date.now() + maxMs;
    let seen = -1;
    let changedAt = Date.now();
    while (this.count < rows && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200));
      if (this.count !== seen) {
        seen = this.count;
        changedAt = Date.now();
      } else if (seen > 0 && Date.now() - changedAt > quietMs) return;
    }
  }

  /** Replies a second from `since` to the last reply (performance time, as ServedCall stamps it). */
  ratePerSecond(since: number): number | null {
    const last = this.times.at(-1);
    if (last === undefined || last <= since) return null;
    return Math.round(this.count / ((last - since) / 1000));
  }

  /** Seconds from `since` to the last reply. */
  secondsSince(since: number): number | null {
    const last = this.times.at(-1);
    return last === undefined ? null : Math.round((last - since) / 100) / 10;
  }
}

/**
 * The recovery: `limit` waiting rows made due at once and the shard's alarm set for now, so its own
 * alarms drain them, while `rate` events a second arrive for `drainLoadMs`. Bounded by `drainMaxMs`.
 */
export async function measureDrain(
  context: BenchContext,
  subject: Subject,
  shard: BacklogShard,
  replies: SeededReplies,
  limit: number,
  options: { rate: number; drainLoadMs: number; drainMaxMs: number; workspaces: string[] },
) {
  const rows = await shard.makeDue(limit);
  replies.reset();
  const since = highResNow();
  await shard.wake();
  const during = runAtRate(context, subject, {
    rate: options.rate,
    durationMs: options.drainLoadMs,
    workspaces: options.workspaces,
  });
  await replies.until(rows, options.drainMaxMs);
  const seconds = replies.secondsSince(since);
  return { rows, delivered: replies.count, seconds, perSecond: replies.ratePerSecond(since), during: await during };
}
