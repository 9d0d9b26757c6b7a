import { Paced } from "../errors";
import { type Pace, paceOf } from "./tiers";

/** A call whose turn is at most this far away waits for it inside the attempt; a later one postpones its row. */
export const INLINE_WAIT_MS = 1_000;

/** Where a bucket's reservations are kept: this shard's pacer, or another shard's (by RPC). */
export interface PaceKeeper {
  reserve(bucket: string, pace: Pace, holder: string): number | Promise<number>;
  spend(bucket: string, holder: string): void | Promise<void>;
  blockUntil(bucket: string, until: number, holder: string): number | Promise<number>;
}

/** What a Slack client asks before each call, and tells after a 429 (slack/client.ts). */
export interface CallPacing {
  /** Resolves when the call may go; throws Paced when its turn is too far away for this attempt. */
  before(method: string, body: Record<string, unknown>): Promise<void>;
  /** Slack answered 429: the bucket waits, this call keeps its turn. Resolves with that turn (or undefined: not paced). */
  rateLimited(method: string, body: Record<string, unknown>, until: number): Promise<number | undefined>;
}

/** The pacer that keeps `bucket` of `workspace`: a workspace's buckets are spread over its shards. */
export type KeeperOf = (workspace: string, bucket: string) => PaceKeeper;

/**
 * Pacing for one attempt of one row (the holder of its slots), in its workspace's buckets.
 * Every bucket has one keeper, so a channel is paced as one however many shards post to it.
 */
export function callPacing(keeperOf: KeeperOf, workspace: string, holder: string): CallPacing {
  return {
    async before(method, body) {
      const paced = paceOf(method, body);
      if (!paced) return;
      const bucket = `${workspace}|${paced.bucket}`;
      const keeper = keeperOf(workspace, bucket);
      const slot = await keeper.reserve(bucket, paced.pace, holder);
      const wait = slot - Date.now();
      if (wait <= 0) return;
      if (wait > INLINE_WAIT_MS) throw new Paced(paced.bucket, slot);
      await new Promise((resolve) => setTimeout(resolve, wait));
      await keeper.spend(bucket, holder);
    },
    async rateLimited(method, body, until) {
      const paced = paceOf(method, body);
      if (!paced) return;
      const bucket = `${workspace}|${paced.bucket}`;
      return await keeperOf(workspace, bucket).blockUntil(bucket, until, holder);
    },
  };
}
