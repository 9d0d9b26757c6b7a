import { describeError, log } from "../platform/log";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { WakeUps } from "../platform/wakeUps";
import type { BucketLayout, LayoutChange } from "../rpc/bucketLayouts";
import type { ShardLoad } from "../rpc/watch";
import type { SpreadSettings } from "../settings";
import type { ReportedBusy, ShardRegistry } from "./shardRegistry";
import { SpreadChecks } from "./spreadChecks";
import { busyShare, decideSpread, nextCheckAt, type SpreadInput } from "./spreadDecision";

/** A workspace's bucket 0 as the spread reaches it (rpc/shard.ts LayoutKeeperApi, over RPC). */
export interface LayoutKeeper {
  bucketLayouts(): BucketLayout[] | Promise<BucketLayout[]>;
  changeBuckets(buckets: number, shardBuckets: number, change?: LayoutChange): BucketLayout[] | Promise<BucketLayout[]>;
}

export interface SpreadParts {
  sql: MeteredSql;
  registry: ShardRegistry;
  settings: SpreadSettings;
  /** SHARD_BUCKETS: the count of a workspace without layouts. */
  shardBuckets: number;
  keeperOf: (workspace: string) => LayoutKeeper;
  wakeUps: Pick<WakeUps, "arm" | "register">;
}

/**
 * The automatic spread (docs/guides/sharding.md "Automatic spread"), decided in one place, the
 * watch: every shard already reports its minute to the watch's registry, so the watch sees each
 * workspace's shards side by side at no row more, and one alarm decides for all. A report over
 * the trigger books a check; the alarm reads the workspace's layouts from its bucket 0, decides
 * (spreadDecision.ts) and asks bucket 0 — the layouts' one writer — for the new layout, as the PUT does.
 */
export class Spreads {
  private readonly checks: SpreadChecks;

  constructor(private readonly parts: SpreadParts) {
    this.checks = new SpreadChecks(parts.sql);
    parts.wakeUps.register(() => this.checks.nextDueAt());
  }

  /** A shard's load as it reported it: judged for the registry's row; a busy one books a check of its workspace. */
  judged(workspace: string, load: ShardLoad | undefined, now: number): ReportedBusy | undefined {
    if (!load) return undefined;
    const { settings } = this.parts;
    const share = busyShare(load, settings);
    if (settings.automatic && share >= settings.busyShare) {
      this.checks.busy(workspace, now);
      const due = this.checks.nextDueAt();
      if (due !== null) this.parts.wakeUps.arm(due);
    }
    return { share, minute: load.minute, warm: share >= settings.busyShare / 2 };
  }

  /** The alarm's part: each workspace due is looked at; one that fails is looked at again in a minute. */
  async due(now: number): Promise<void> {
    for (const workspace of this.checks.due(now)) {
      try {
        await this.check(workspace, now);
      } catch (error) {
        log("warn", "spread: workspace not checked", { workspace, error: describeError(error) });
        this.checks.next(workspace, now + 60_000, 0);
      }
    }
  }

  private async check(workspace: string, now: number): Promise<void> {
    const { settings, shardBuckets, registry } = this.parts;
    const keeper = this.parts.keeperOf(workspace);
    // Awaits open the input gate: the figures are read after the layouts, so none is older than them.
    let layouts = await keeper.bucketLayouts();
    const input = (): SpreadInput => ({ layouts, shardBuckets, shards: registry.figuresOf(workspace), settings, now });
    const change = settings.automatic ? decideSpread(input()) : null;
    if (change) {
      const { buckets, reason, busy, latestAt } = change;
      layouts = await keeper.changeBuckets(buckets, shardBuckets, { reason, busy, latestAt });
      const added = layouts.at(-1)?.buckets === buckets && (layouts.at(-1)?.effectiveAt ?? 0) > latestAt;
      log("info", added ? "spread: buckets changed" : "spread: layouts changed meanwhile; nothing added", {
        workspace,
        buckets,
        reason,
        busy: Math.round(busy * 100) / 100,
      });
    }
    const next = settings.automatic ? nextCheckAt(input()) : null;
    this.checks.next(workspace, next, (layouts.at(-1)?.effectiveAt ?? 0) + settings.coolDownMs);
  }
}
