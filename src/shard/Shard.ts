import { DurableObject } from "cloudflare:workers";
import type { Plan, SlackApp } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import type { Inbound } from "../inbound/types";
import type { Pace } from "../pacing/tiers";
import { WrongRole } from "../platform/errors";
import { ShardStorage } from "../recording/shardStorage";
import type { LayoutChange } from "../rpc/bucketLayouts";
import type { CoordinatorEnv } from "../rpc/env";
import type { EventFilter } from "../rpc/eventStories";
import type { InstallationChange } from "../rpc/installations";
import type { DeliveryReport } from "../rpc/outcomes";
import type { ParkedBatch } from "../rpc/parkedFilter";
import type { ParkedCursor, ShardApi } from "../rpc/shard";
import type { AckTally, AppRateLimited, ShardLoad } from "../rpc/watch";
import { roleOf } from "./roleOf";
import type { ShardClass } from "./shardClass";
import { WatchShard } from "./watchShard";
import { WorkspaceShard } from "./workspaceShard";

/**
 * Builds the shard Durable Object class for one app. One class (one binding, SHARD) plays two
 * roles, picked once from its name: a workspace's shard (workspaceShard.ts) or the watch
 * (watchShard.ts); each is made of parts that own their tables and wake sources. The class is
 * the RPC facade: one-line delegations; a method of the other role throws WrongRole, and every
 * method of a shard whose schema is newer than this code throws SchemaNewerThanCode.
 */
export function defineShard(userApp: SlackApp, authorize: Authorize<CoordinatorEnv>): ShardClass {
  return class Shard extends DurableObject<CoordinatorEnv> implements ShardApi {
    private readonly storage: ShardStorage;
    private readonly played: WorkspaceShard | WatchShard;

    constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
      super(ctx, env);
      this.storage = new ShardStorage(ctx.storage, ctx.id.name ?? ctx.id.toString());
      this.played = roleOf(this.storage, userApp, authorize, env);
      // Schema first: no request may see a half-migrated shard. This is the only
      // blockConcurrencyWhile — on the request path it would cap the shard's throughput.
      void ctx.blockConcurrencyWhile(() => this.storage.load());
    }

    /** The role, for every RPC; a shard whose schema is newer than this code refuses (SchemaNewerThanCode). */
    private get role(): WorkspaceShard | WatchShard {
      this.storage.refuseIfNewer();
      return this.played;
    }

    private get workspace(): WorkspaceShard {
      if (this.role instanceof WorkspaceShard) return this.role;
      throw new WrongRole(this.storage.name, this.role.kind, "a workspace shard");
    }

    private get watch(): WatchShard {
      if (this.role instanceof WatchShard) return this.role;
      throw new WrongRole(this.storage.name, this.role.kind, "the watch");
    }

    override alarm(): Promise<void> {
      // Not refused: the alarm's frame re-arms a refused shard without working (shardStorage.ts).
      return this.played.alarm();
    }

    // A workspace's shard: recording, delivery, installation changes (WorkspaceShardApi).
    ingest(inbound: Inbound, plan?: Plan) {
      return this.workspace.recording.ingest(inbound, plan);
    }
    installationChanged(workspace: string, change: InstallationChange) {
      return this.workspace.recording.installationChanged(workspace, change);
    }
    backendAnswer(dedupeKey: string, waitMs: number) {
      return this.workspace.delivery.backendResponse(dedupeKey, waitMs);
    }
    eventStory(id: string) {
      return this.workspace.recording.eventStory(id);
    }
    listEvents(filter: EventFilter) {
      return this.workspace.recording.listEvents(filter);
    }

    // Bucket layouts (a workspace's bucket 0) and pace keeping (LayoutKeeperApi, PaceKeeperApi).
    bucketLayouts() {
      return this.workspace.layouts.bucketLayouts();
    }
    changeBuckets(buckets: number, shardBuckets: number, change?: LayoutChange) {
      return this.workspace.layouts.changeBuckets(buckets, shardBuckets, change);
    }
    reservePace(rateKey: string, pace: Pace, holder: string) {
      return this.workspace.pace.reservePace(rateKey, pace, holder);
    }
    spendPace(rateKey: string, holder: string) {
      return this.workspace.pace.spendPace(rateKey, holder);
    }
    blockPace(rateKey: string, until: number, holder: string) {
      return this.workspace.pace.blockPace(rateKey, until, holder);
    }

    // The watch (WatchApi): alerts, the guard, the registry of shards.
    countAnswers(tally: AckTally) {
      return this.watch.watch().countAcks(tally, Date.now());
    }
    reportDeliveries(report: DeliveryReport) {
      return this.watch.watch().reportDeliveries(report, Date.now());
    }
    health() {
      return this.watch.watch().health(Date.now());
    }
    appRateLimited(notice: AppRateLimited) {
      return this.watch.watch().appRateLimited(notice, Date.now());
    }
    alertState() {
      return this.watch.watch().alertState(Date.now());
    }
    shardSeen(shard: string, at: number, databaseSize?: number, load?: ShardLoad) {
      return this.watch.watch().shardSeen(shard, at, databaseSize, Date.now(), load);
    }
    shards(since: number) {
      return this.watch.watch().shards(since);
    }

    // Either role (ShardOperationsApi): metrics and the dead-letter queue, for /admin.
    metricsSince(fromMinute: number) {
      return this.role.metrics.metricsSince(fromMinute);
    }
    stats() {
      return this.role.operations.stats();
    }
    listParked(limit?: number) {
      return this.role.operations.listParked(limit);
    }
    replay(key?: string) {
      return this.role.operations.replay(key);
    }
    discard(key: string) {
      return this.role.operations.discard(key);
    }
    listParkedBefore(before: ParkedCursor | null, limit: number) {
      return this.role.operations.listParkedBefore(before, limit);
    }
    replayParked(keys: string[] | null) {
      return this.role.operations.replayParked(keys);
    }
    discardParked(keys: string[] | null) {
      return this.role.operations.discardParked(keys);
    }
    parkedMatching(batch: ParkedBatch) {
      return this.role.operations.parkedMatching(batch);
    }
  };
}
