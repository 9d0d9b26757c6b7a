import type { ShardNamespace } from "../env";
import { Pacer } from "../pacing/pacer";
import type { KeeperOf, PaceKeeper } from "../pacing/pacing";
import type { Pace } from "../pacing/tiers";
import { shardFor } from "../routing/shardFor";
import { paceKeeperStub } from "../routing/shardStub";
import type { PaceKeeperApi } from "./api";

/** A workspace shard's pace keeping: the rate-limit buckets it keeps for its workspace's shards (in memory). */
export class PaceKeeping implements PaceKeeperApi {
  private readonly pacer = new Pacer();
  /** The same buckets, as this shard's own delivery asks them (no RPC). */
  readonly local: PaceKeeper = {
    reserve: (bucket, pace, holder) => this.reservePace(bucket, pace, holder),
    spend: (bucket, holder) => this.spendPace(bucket, holder),
    blockUntil: (bucket, until, holder) => this.blockPace(bucket, until, holder),
  };

  reservePace(bucket: string, pace: Pace, holder: string): number {
    return this.pacer.reserve(bucket, pace, holder, Date.now());
  }

  spendPace(bucket: string, holder: string): void {
    this.pacer.spend(bucket, holder);
  }

  blockPace(bucket: string, until: number, holder: string): number {
    return this.pacer.blockUntil(bucket, until, holder, Date.now());
  }
}

/**
 * Who keeps a rate-limit bucket: one shard of the workspace, by the bucket's hash, so all of its
 * shards pace a channel (or a method) as one. `local` when that shard is `shard` itself.
 */
export function keeperOf(namespace: ShardNamespace, shard: string, buckets: number, local?: PaceKeeper): KeeperOf {
  return (workspace, bucket) => {
    const keeper = shardFor(workspace, `pace:${bucket}`, buckets);
    if (local && keeper === shard) return local;
    const stub = paceKeeperStub(namespace, keeper);
    return {
      reserve: (b, pace, holder) => stub.reservePace(b, pace, holder),
      spend: (b, holder) => stub.spendPace(b, holder),
      blockUntil: (b, until, holder) => stub.blockPace(b, until, holder),
    };
  };
}
