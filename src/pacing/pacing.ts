import { Paced } from "../platform/errors";
import { waitForClock } from "../platform/heldClock";
import type { Outbound } from "../platform/outboundCalls";
import { workspaceRateKey } from "../platform/retryAfter";
import { type Pace, paceOf } from "./tiers";

/** A call whose turn is at most this far away waits for it inside the attempt; a later one postpones its row. */
export const INLINE_WAIT_MS = 1_000;

/** Where a rate key's reservations are kept: this shard's pacer, or another shard's (by RPC). */
export interface PaceKeeper {
  reserve(rateKey: string, pace: Pace, holder: string): number | Promise<number>;
  spend(rateKey: string, holder: string): void | Promise<void>;
  blockUntil(rateKey: string, until: number, holder: string): number | Promise<number>;
}

/** What a Slack client asks before each call, and tells after a 429 (slack/client.ts). */
export interface CallPacing {
  /** Resolves when the call may go; throws Paced when its turn is too far away for this attempt. */
  before(method: string, body: Record<string, unknown>): Promise<void>;
  /** Slack answered 429: the rate key waits, this call keeps its turn. Resolves with that turn (or undefined: not paced). */
  rateLimited(method: string, body: Record<string, unknown>, until: number): Promise<number | undefined>;
}

/**
 * The pacer that keeps `rateKey` (a workspace rate key) of `workspace`: a workspace's rate keys are
 * spread over its shards. A keeper that is another shard is asked through `outbound` (each RPC a subrequest).
 */
export type KeeperOf = (workspace: string, rateKey: string, outbound?: Outbound) => PaceKeeper;

/** The paces a deployment sets: SLACK_STREAM_BURST, SLACK_HISTORY_PER_MINUTE. */
export interface PaceSettings {
  streamBurst?: number;
  history?: { perMinute: number };
}

/**
 * Pacing for one attempt of one row (the holder of its slots), under its workspace's rate keys;
 * `streamBurst` stream starts (and stops) may go at once, the history reads go at their
 * `perMinute`. Every rate key has one keeper, so a channel is paced as one however many shards
 * post to it.
 */
export function callPacing(
  keeperOf: KeeperOf,
  workspace: string,
  holder: string,
  paces: PaceSettings = {},
  outbound?: Outbound,
): CallPacing {
  const paceOfCall = (method: string, body: Record<string, unknown>) =>
    paceOf(method, body, paces.streamBurst, paces.history?.perMinute);
  return {
    async before(method, body) {
      const paced = paceOfCall(method, body);
      if (!paced) return;
      const rateKey = workspaceRateKey(workspace, paced.rateKey);
      const keeper = keeperOf(workspace, rateKey, outbound);
      const slot = await keeper.reserve(rateKey, paced.pace, holder);
      const wait = slot - Date.now();
      if (wait <= 0) return;
      if (wait > INLINE_WAIT_MS) throw new Paced(paced.rateKey, slot);
      // On the clock's own time: a test's held clock is moved to the slot (platform/heldClock.ts).
      await waitForClock(slot);
      await keeper.spend(rateKey, holder);
    },
    async rateLimited(method, body, until) {
      const paced = paceOfCall(method, body);
      if (!paced) return;
      const rateKey = workspaceRateKey(workspace, paced.rateKey);
      return await keeperOf(workspace, rateKey, outbound).blockUntil(rateKey, until, holder);
    },
  };
}
