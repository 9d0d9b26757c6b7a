import type { PartWorld, ShardPart } from "../part";
import { LookupWaits } from "./lookupWaits";
import { PostLookups } from "./postLookups";

/**
 * Uncertain posts, the shard's side: what every attempt of the shard shares when an earlier attempt
 * may have posted unbeknown to its row — the lookups of a conversation's posts, serving all its rows
 * (`postLookups.ts`), and each row's wait for them, spanning its attempts (`lookupWaits.ts`). In
 * memory, one per shard; no table, nothing recorded at ingest, nothing to prune.
 */
export class UncertainPosts implements ShardPart {
  readonly lookups: PostLookups;
  private rowWaits?: LookupWaits;

  constructor({ shard }: Pick<PartWorld, "shard">) {
    this.lookups = new PostLookups(shard);
  }

  /**
   * The rows' waits for their lookups, bounded by SLACK_HISTORY_MAX_WAIT_MS (`maxWaitMs`, the
   * delivery's settings: read once they are known valid, so given by the first attempt that asks).
   */
  waits(maxWaitMs: number): LookupWaits {
    this.rowWaits ??= new LookupWaits(maxWaitMs);
    return this.rowWaits;
  }
}
