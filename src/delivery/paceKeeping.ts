import { Pacer } from "../pacing/pacer";
import type { KeeperOf, PaceKeeper } from "../pacing/pacing";
import type { Pace } from "../pacing/tiers";
import { DIRECT } from "../platform/outboundCalls";
import type { ShardNamespace } from "../rpc/env";
import type { PaceKeeperApi } from "../rpc/shard";
import { shardFor } from "../rpc/shardFor";
import { paceKeeperStub } from "../rpc/shardStub";

/** A workspace shard's pace keeping: the rate keys it keeps for its workspace's shards (in memory). */
export class PaceKeeping implements PaceKeeperApi {
  private readonly pacer = new Pacer();
  /** The same rate keys, as this shard's own delivery asks them (no RPC). */
  readonly local: PaceKeeper = {
    reserve: (rateKey, pace, holder) => this.reservePace(rateKey, pace, holder),
    spend: (rateKey, holder) => this.spendPace(rateKey, holder),
    blockUntil: (rateKey, until, holder) => this.blockPace(rateKey, until, holder),
  };

  reservePace(rateKey: string, pace: Pace, holder: string): number {
    return this.pacer.reserve(rateKey, pace, holder, Date.now());
  }

  spendPace(rateKey: string, holder: string): void {
    this.pacer.spend(rateKey, holder);
  }

  blockPace(rateKey: string, until: number, holder: string): number {
    return this.pacer.blockUntil(rateKey, until, holder, Date.now());
  }
}

/**
 * Who keeps a workspace rate key: one shard of the workspace, by the rate key's hash over its
 * shard buckets, so all of its shards pace a channel (or a method) as one. `local` when that
 * shard is `shard` itself.
 */
export function keeperOf(namespace: ShardNamespace, shard: string, shardBuckets: number, local?: PaceKeeper): KeeperOf {
  return (workspace, rateKey, outbound = DIRECT) => {
    const keeper = shardFor(workspace, `pace:${rateKey}`, shardBuckets);
    if (local && keeper === shard) return local;
    const stub = paceKeeperStub(namespace, keeper);
    // Each ask of another shard is a subrequest of this invocation: counted by the attempt's door.
    return {
      reserve: (key, pace, holder) => outbound.rpc(() => stub.reservePace(key, pace, holder)),
      spend: (key, holder) => outbound.rpc(() => stub.spendPace(key, holder)),
      blockUntil: (key, until, holder) => outbound.rpc(() => stub.blockPace(key, until, holder)),
    };
  };
}
