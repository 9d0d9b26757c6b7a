import type { Effect } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import type { ReadyKinds } from "../effects/registry";
import type { KeeperOf } from "../pacing/pacing";
import type { ShardParts } from "../parts/shardParts";
import type { DeliveryEvents } from "../platform/deliveryEvents";
import type { InvocationMeter, InvocationMeters } from "../platform/invocationMeter";
import type { OutboundCalls } from "../platform/outboundCalls";
import type { RetryAfterMemory } from "../platform/retryAfter";
import type { ClaimedRow, Outbox } from "../recording/outbox";
import type { CoordinatorEnv } from "../rpc/env";
import type { CallOutcome } from "../rpc/outcomes";
import type { DeliverySettings } from "../settings";
import type { AttemptReport } from "./attemptPosts";
import type { Completions } from "./completions";
import type { LeaseRenewals } from "./leaseRenewals";
import type { FollowUps } from "./parkFollowUps";

/**
 * A shard's delivery, built once per shard (buildCourier.ts): all that claimed rows are delivered with
 * (deliverClaimed.ts), each attempt made of it (attempt.ts) and settled through it. An effect
 * kind's own dependencies are not here: each kind drew them into `kinds` (src/effects/).
 */
export interface Courier {
  shard: string;
  outbox: Outbox;
  settings: DeliverySettings;
  /** `settings.delivery`: the loop's own knobs (concurrency, leases, backoff). */
  delivery: DeliverySettings["delivery"];
  /** Every settled attempt is told here (counters, log, backend responses, reports to the watch). */
  events: DeliveryEvents;
  /** Called with the time a row becomes due again, so the shard can move its alarm earlier. */
  wakeAt(at: number): void;
  /** A turn ended (delivered, parked or stopped): its conversation's next turn may begin (deliveryLoop.ts). */
  turnEnded?(conversation: string, key: string, meter?: InvocationMeter): void;

  // The settle's side.
  /** Fenced completions and step checkpoints, sharing commits with the shard's next write (completions.ts). */
  completions: Completions;
  /** The running attempts' leases, kept alive by one timer (leaseRenewals.ts). */
  leases: LeaseRenewals;
  retryAfters: RetryAfterMemory;
  /** What the app plans once a row is finally parked, recorded with the parking (parkFollowUps.ts). */
  followUps?: FollowUps;
  /** What a run's second failed attempt in a row records with its retry: its user told once (failureNotices.ts). */
  retrying?: FollowUps;
  /** What closes the streams a run left open, recorded with each of its parkings, a replay's too (parkFollowUps.ts). */
  closes?: FollowUps;

  // The attempts' side (attempt.ts).
  /** Every effect kind with the dependencies it drew from the shard's delivery world. */
  kinds: ReadyKinds;
  authorize: Authorize<CoordinatorEnv>;
  env: CoordinatorEnv;
  /** The shard's one door for delivery's calls (platform/outboundCalls.ts): counted per invocation, six fetches at a time. */
  outbound: OutboundCalls;
  /** The shard's invocations' subrequests (`outbound.meters`): each call counts on its invocation's meter. */
  meters: InvocationMeters;
  /** Who keeps each rate key, when SLACK_PACING is on. */
  pacing?: KeeperOf;
  /** The shard's parts (src/parts/): the stop button's signal for each attempt, a run's waits, the lookups of uncertain posts, … */
  parts: ShardParts;
  /** Told how each request of an attempt went, with the row's key (alerts; see deliveryReports.ts). */
  observe?(outcome: CallOutcome, key: string): void;
  /** Performs one attempt of a row with this courier (performRow.ts); throws what went wrong. */
  perform(effect: Effect, row: ClaimedRow, token: string, report?: AttemptReport, meter?: InvocationMeter): Promise<void>;
}
