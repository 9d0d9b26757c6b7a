import { DurableObject } from "cloudflare:workers";
import type { AckBody, SlackApp } from "../app/types";
import { readSettings, type Settings } from "../config";
import type { CoordinatorEnv } from "../env";
import type { Inbound } from "../inbound/types";
import { describeError, log } from "../log";
import { applyMigrations } from "./migrations";
import { Outbox } from "./outbox";
import { Receipts } from "./receipts";

/** The shard's answer to `ingest`, returned only once it is durable. */
export interface IngestResult {
  verdict: "accepted" | "duplicate" | "ignored";
  /** Synchronous ack body for Slack, when the app gave one (a duplicate gets the first one's). */
  ackBody?: AckBody;
  /** Outbox rows this delivery added (0 for duplicates and ignored). */
  enqueued: number;
}

/** Receipts deleted per alarm; the rest waits for the next alarm so no invocation runs long. */
const PRUNE_BATCH = 500;
/** Alarms for pruning alone come no more often than this: receipts expire in bulk, not one by one. */
const PRUNE_INTERVAL_MS = 60_000;

/**
 * Builds the shard Durable Object class for one app. A shard owns a workspace's slice of
 * deliveries (see routing/shardFor.ts) and keeps their receipts and outbox in SQLite.
 */
export function defineShard(app: SlackApp) {
  return class Shard extends DurableObject<CoordinatorEnv> {
    readonly receipts: Receipts;
    readonly outbox: Outbox;
    readonly settings: Settings;
    /** Mirror of the scheduled alarm, so ingest only pays for setAlarm when it moves it earlier. */
    private alarmAt: number | null = null;

    constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
      super(ctx, env);
      this.settings = readSettings(env);
      this.receipts = new Receipts(ctx.storage.sql);
      this.outbox = new Outbox(ctx.storage.sql);
      // Schema first: no request may see a half-migrated shard. This is the only
      // blockConcurrencyWhile — on the request path it would cap the shard's throughput.
      void ctx.blockConcurrencyWhile(async () => {
        applyMigrations(ctx.storage);
        this.alarmAt = await ctx.storage.getAlarm();
      });
    }

    private get name(): string {
      return this.ctx.id.name ?? this.ctx.id.toString();
    }

    /**
     * Records one delivery: receipt, outbox rows and alarm in ONE transaction. The RPC
     * reply is held by the output gate until that transaction is durable, so the Worker
     * can never answer Slack 200 for something that is not stored.
     */
    ingest(inbound: Inbound): IngestResult {
      const now = Date.now();
      const plan = app.plan(inbound);
      if ("ignore" in plan) return { verdict: "ignored", enqueued: 0 };

      return this.ctx.storage.transactionSync(() => {
        if (!this.receipts.recordFirst(inbound, plan.ackBody, now)) {
          return { verdict: "duplicate", ackBody: this.receipts.responseOf(inbound.dedupeKey), enqueued: 0 };
        }
        const enqueued = this.outbox.enqueue(inbound, plan.effects, now);
        this.armAlarm(now + this.settings.receiptRetentionMs);
        return { verdict: "accepted", ackBody: plan.ackBody, enqueued };
      });
    }

    /** Counts for operators and tests; cheap reads only. */
    stats(): { receipts: number; outbox: ReturnType<Outbox["countsByStatus"]> } {
      return { receipts: this.receipts.count(), outbox: this.outbox.countsByStatus() };
    }

    override async alarm(): Promise<void> {
      // The alarm that woke us is consumed (getAlarm() reads null in here).
      this.alarmAt = null;
      const now = Date.now();
      let pruned = 0;
      try {
        pruned = this.receipts.pruneBefore(now - this.settings.receiptRetentionMs, PRUNE_BATCH);
      } catch (error) {
        // Never let the alarm throw: the runtime stops retrying after six failures.
        log("error", "prune failed", { shard: this.name, error: describeError(error) });
      }
      this.armAlarm(this.nextWakeAt(now, pruned === PRUNE_BATCH));
    }

    /** When this shard next has work: more pruning now, or when the oldest receipt expires. */
    private nextWakeAt(now: number, moreToPrune: boolean): number | null {
      if (moreToPrune) return now;
      const oldest = this.receipts.oldestReceivedAt();
      if (oldest === null) return null;
      return Math.max(oldest + this.settings.receiptRetentionMs, now + PRUNE_INTERVAL_MS);
    }

    /** Moves the alarm earlier (or sets one); never later — an earlier wake-up just re-arms. */
    private armAlarm(at: number | null): void {
      if (at === null || (this.alarmAt !== null && this.alarmAt <= at)) return;
      this.alarmAt = at;
      // No await: the alarm write commits atomically with the surrounding writes.
      void this.ctx.storage.setAlarm(at);
    }
  };
}

export type ShardClass = ReturnType<typeof defineShard>;
export type Shard = InstanceType<ShardClass>;
