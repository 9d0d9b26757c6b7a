import type { AckBody, Plan } from "../app/contract";
import type { Inbound } from "../inbound/types";
import type { MinuteRow } from "../metrics/minuteMetrics";
import type { Pace } from "../pacing/tiers";
import type { DeliveryCounters } from "../platform/deliveryEvents";
import type { MigrationId } from "../platform/errors";
import type { BucketLayout, LayoutChange } from "./bucketLayouts";
import type { EventFilter, EventStory, EventSummary } from "./eventStories";
import type { InstallationChange } from "./installations";
import type { DeliveryReport } from "./outcomes";
import type { ParkedBatch, ParkedBatchResult } from "./parkedFilter";
import type {
  AckTally,
  AlertState,
  AppRateLimited,
  AppRateLimitedSummary,
  HealthWindow,
  RegisteredShard,
  ShardLoad,
} from "./watch";

/**
 * The shard's RPC surfaces as the front Worker and the operations API see them: types only, so
 * callers depend on this leaf rather than on the class. One Durable Object class serves every
 * role (one binding, SHARD); a stub is typed for the role its name gives (shardStub.ts),
 * and a method of another role throws WrongRole. Deploys roll out gradually, so a new Worker may
 * talk to an old shard for minutes: only ever add optional fields and new methods.
 */
export interface ShardOperationsApi {
  stats(): ShardStats;
  /** The shard's parked rows, oldest first (GET /admin/shards/…/parked). */
  listParked(limit?: number): ParkedRow[];
  /** Parked rows newest first, before `before`, for the fleet-wide list (GET /admin/api/parked). */
  listParkedBefore(before: ParkedCursor | null, limit: number): ParkedRow[];
  /** Replays the parked rows among `keys`, or all (null). Returns how many. */
  replayParked(keys: string[] | null): number;
  /** Discards the parked rows among `keys`, or all (null). Returns how many. */
  discardParked(keys: string[] | null): number;
  /**
   * One bounded batch of a filtered count, replay or discard of the dead-letter queue (stopped runs
   * never match). Newer than replayParked: an older shard lacks it, and the Worker names that shard
   * unreachable rather than widening to replayParked (docs/design.md "Words").
   */
  parkedMatching(batch: ParkedBatch): ParkedBatchResult;
  /** @deprecated replayParked's older name, for Workers of an earlier version during a rolling deploy (docs/design.md). */
  replay(key?: string): number;
  /** @deprecated discardParked's older name, for Workers of an earlier version during a rolling deploy (docs/design.md). */
  discard(key: string): boolean;
  /** Metric minutes from `fromMinute` on (minutes since the epoch), the minute in progress, the outbox now. */
  metricsSince(fromMinute: number): ShardMetrics;
}

/** A workspace's shard ("{workspace}/{bucket}"): records its deliveries and delivers their effects. */
export interface WorkspaceShardApi extends ShardOperationsApi {
  /**
   * Records `inbound`. `plan`: the edge's plan of it (routing/servedApp.ts), so the shard does not
   * plan it again; optional across rolling deploys: without it (an older edge, a test), the shard plans.
   */
  ingest(inbound: Inbound, plan?: Plan): IngestResult | Promise<IngestResult>;
  /** OAuth mode: the installation store's push; returns how many waiting effects were parked. */
  installationChanged(workspace: string, change: InstallationChange): number;
  /**
   * Relay mode, after an ingest that said `awaitsBackend`: the backend response to the delivery's
   * first relay attempt once its row is completed, waiting at most `waitMs`; else null.
   * (`backendAnswer`: the RPC's name, kept across rolling deploys.)
   */
  backendAnswer(dedupeKey: string, waitMs: number): Promise<BackendResponse | null>;
  /** One delivery's story by its dedupe key (or `fact:…` key); null when unknown or pruned (GET /admin/api/events/{id}). */
  eventStory(id: string): EventStory | null;
  /** Its deliveries newest first, as `filter` says (GET /admin/api/events). */
  listEvents(filter: EventFilter): EventSummary[];
}

/** A workspace's bucket 0, which keeps its bucket layouts (README "Sharding"). */
export interface LayoutKeeperApi {
  /** Its bucket layouts; empty when none was ever set. */
  bucketLayouts(): BucketLayout[];
  /**
   * A new layout of `buckets`, effective shortly (`shardBuckets`: the count before any layout, kept
   * as the first); `change` says why (absent: manual, and from Workers of an earlier version).
   */
  changeBuckets(buckets: number, shardBuckets: number, change?: LayoutChange): BucketLayout[];
}

/** A workspace shard as the keeper of some of its workspace's rate keys (src/pacing/). */
export interface PaceKeeperApi {
  /** A slot under a workspace rate key this shard keeps for its workspace. */
  reservePace(rateKey: string, pace: Pace, holder: string): number;
  spendPace(rateKey: string, holder: string): void;
  /** Slack answered 429 under this rate key: nothing goes before `until`; returns the holder's kept turn. */
  blockPace(rateKey: string, until: number, holder: string): number;
}

/** The watch (the reserved shard "watch"): alerts, the guard, the registry of shards — and its own outbox. */
export interface WatchApi extends ShardOperationsApi {
  /** Acks a Worker instance gave Slack, per minute and cause (`countAnswers`: the RPC's name, kept across rolling deploys). */
  countAnswers(tally: AckTally): void;
  /** How a shard's deliveries went (failure streaks, parked effects). */
  reportDeliveries(report: DeliveryReport): void;
  /** The rolling window of acks to Slack, and Slack's app_rate_limited notices (GET /admin/health). */
  health(): HealthWindow & { app_rate_limited: AppRateLimitedSummary };
  /** Slack stopped sending a workspace's events for a minute (app_rate_limited). */
  appRateLimited(notice: AppRateLimited): void;
  /** The destinations failing now and the guard's state (the console). */
  alertState(): AlertState;
  /**
   * A shard says it is alive (at most once a minute), with its SQLite size in bytes and its last
   * minute's load (each absent from shards of an earlier version): the automatic spread's figures.
   */
  shardSeen(shard: string, at: number, databaseSize?: number, load?: ShardLoad): void;
  /** The shards active since `since` (ms since the epoch). */
  shards(since: number): RegisteredShard[];
}

/** The Durable Object class's whole surface: every role's methods (the SHARD namespace's type). */
export interface ShardApi extends WorkspaceShardApi, LayoutKeeperApi, PaceKeeperApi, WatchApi {}

/** A shard's metrics for the console (README "Operations console"). */
export interface ShardMetrics {
  minutes: MinuteRow[];
  /** Minutes that are over but not yet written (the alarm is due), oldest first. */
  unwritten?: Array<Omit<MinuteRow, "depth" | "oldestPendingAt">>;
  /** The minute in progress, not yet written. */
  live?: Omit<MinuteRow, "depth" | "oldestPendingAt">;
  outbox: { pending: number; parked: number; oldestPendingAt: number | null };
  /** The shard's SQLite size now, in bytes (absent: no schema yet, or a shard of an earlier version). */
  databaseSize?: number;
}

/** The shard's answer to `ingest`, returned only once it is durable. */
export interface IngestResult {
  /** `not_installed` (OAuth mode): the workspace has no usable installation; nothing stored. */
  verdict: "accepted" | "duplicate" | "ignored" | "not_installed";
  /** Why, for `not_installed`. */
  reason?: string;
  /** Synchronous ack body for Slack, when the app gave one (a duplicate gets the first one's). */
  ackBody?: AckBody;
  /** Outbox rows this delivery added (0 for duplicates and ignored). */
  enqueued: number;
  /**
   * Relay mode, a command or interaction: its relay row's first attempt is running now, and the
   * backend response can be had from `backendAnswer` for a synchronous ack.
   */
  awaitsBackend?: boolean;
}

/** What a relay backend responded to a command or interaction: the ack Slack shows (docs/guides/relay.md "Synchronous answers"). */
export interface BackendResponse {
  contentType: string;
  body: string;
}

export type OutboxStatus = "pending" | "parked" | "stopped";

/** A parked (dead-letter) row as the operations API lists it. */
export type ParkedRow = {
  idempotency_key: string;
  workspace: string;
  effect: string;
  attempts: number;
  last_error: string | null;
  created_at: number;
  parked_at: number;
};

/** A position in the fleet-wide parked list (newest first): the last row a page gave. */
export interface ParkedCursor {
  parkedAt: number;
  key: string;
  /** Breaks ties between shards; a shard ignores it and answers rows at or before (parkedAt, key). */
  shard?: string;
}

export interface ShardStats {
  receipts: number;
  outbox: Record<OutboxStatus, number>;
  /**
   * The newest migration applied to this shard (null: it has no schema), read once per instance
   * (docs/guides/operations.md "Rolling back safely"). Absent from shards of an earlier version.
   */
  migration?: MigrationId | null;
  /** Since this instance started (in memory; delivered rows leave no row behind). */
  counters: DeliveryCounters & {
    /** Deliveries this instance accepted (first deliveries, not duplicates). */
    accepted: number;
    /** Turns this instance refused: over a budget (`limits`). Absent from shards of an earlier version. */
    turnsRefused?: number;
    /** Ingests this instance refused: waited past OVERLOAD_WAIT_MS in front of it. Absent from shards of an earlier version. */
    overloaded?: number;
    /** SQLite rows written, index rows included — what Cloudflare bills. */
    rowsWritten: number;
    /** SQL statements run (each `exec`): the hot path's count per event. Absent from shards of an earlier version. */
    statements?: number;
    /** setAlarm calls, each billed as one row written. */
    alarmsSet: number;
  };
}
