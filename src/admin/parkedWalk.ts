import type { CoordinatorEnv } from "../rpc/env";
import type { ParkedAction, ParkedFilter, ParkedPosition } from "../rpc/parkedFilter";
import { shardOperationsStub } from "../rpc/shardStub";
import { onShards } from "./onShards";

/** Parked rows a shard reads per batch: one short synchronous turn, so ingests wait at most that. */
const EXAMINE = 500;
/** Batches per shard per request: 10,000 rows read at most, so a request ends in bounded time. */
const BATCHES = 20;

/** What a filtered operation did across the shards it asked. */
export interface ParkedWalk {
  /** Rows matched (counted, replayed or discarded). */
  count: number;
  /** False when some shard has rows left unread (its batches ran out): the count is at least `count`. */
  complete: boolean;
  /** When not complete: the earliest parked time left unread; the same request with this `since` goes on. */
  resumeSince?: number;
  unreachable: string[];
}

/**
 * Runs a filtered count, replay or discard on `shards` in bounded batches (parkedMatching), each
 * shard walked oldest first through its `outbox_parked` range. A shard of an earlier version lacks
 * the batch RPC: it fails and is named unreachable, never sent an unfiltered replay instead.
 */
export async function walkParked(
  env: CoordinatorEnv,
  shards: readonly string[],
  filter: ParkedFilter,
  action: ParkedAction,
): Promise<ParkedWalk> {
  const unread: number[] = [];
  const { results, unreachable } = await onShards(shards, async (name) => {
    const stub = shardOperationsStub(env.SHARD, name);
    let matched = 0;
    let after: ParkedPosition | null = null;
    for (let batch = 0; batch < BATCHES; batch++) {
      // Each batch is its own RPC: the shard serves ingests between them.
      const answer = await stub.parkedMatching({ filter, action, after, examine: EXAMINE });
      matched += answer.matched;
      after = answer.after;
      if (after === null) return matched;
    }
    if (after) unread.push(after.parkedAt);
    return matched;
  });
  const count = results.reduce((sum, [, n]) => sum + n, 0);
  if (unread.length === 0) return { count, complete: true, unreachable };
  return { count, complete: false, resumeSince: Math.min(...unread), unreachable };
}
