import { DurableObject } from "cloudflare:workers";
import type { AckBody, SlackApp } from "../app/types";
import { readSettings, type Settings } from "../config";
import type { Verdict } from "../delivery/classify";
import { deliverClaimed, newCounters, type Courier, type DeliveryCounters } from "../delivery/deliverClaimed";
import { triggerExpired } from "../delivery/expiry";
import { performEffect } from "../delivery/performEffect";
import { RateLimits } from "../delivery/rateLimits";
import type { CoordinatorEnv } from "../env";
import type { Inbound } from "../inbound/types";
import { describeError, log } from "../log";
import { applyMigrations } from "./migrations";
import { Outbox, type ClaimedRow, type OutboxStatus, type ParkedRow } from "./outbox";
import { MeteredSql } from "./meteredSql";
import { Receipts } from "./receipts";
import { stepFor } from "./stepCheckpoints";
import { SlackClient } from "../slack/client";
import { outboxKeyOf, type Effect, type PlannedEffect } from "../app/types";

/** The shard's answer to `ingest`, returned only once it is durable. */
export interface IngestResult {
  verdict: "accepted" | "duplicate" | "ignored";
  /** Synchronous ack body for Slack, when the app gave one (a duplicate gets the first one's). */
  ackBody?: AckBody;
  /** Outbox rows this delivery added (0 for duplicates and ignored). */
  enqueued: number;
}

export interface ShardStats {
  receipts: number;
  outbox: Record<OutboxStatus, number>;
  /** Since this instance started (in memory; delivered rows leave no row behind). */
  counters: DeliveryCounters & {
    /** Deliveries this instance accepted (first deliveries, not duplicates). */
    accepted: number;
    /** SQLite rows written, index rows included — what Cloudflare bills. */
    rowsWritten: number;
    /** setAlarm calls, each billed as one row written. */
    alarmsSet: number;
  };
}

/** Above this many rows in immediate attempts, new rows go to the sweep (acks stay fast under load). */
const IMMEDIATE_IN_FLIGHT_MAX = 64;
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
    private readonly client: SlackClient;
    readonly counters = newCounters();
    private readonly sql: MeteredSql;
    private accepted = 0;
    private alarmsSet = 0;
    private readonly rateLimits = new RateLimits();
    /** Rows whose immediate attempt is running now. */
    private immediateInFlight = 0;
    /** Mirror of the scheduled alarm, so ingest only pays for setAlarm when it moves it earlier. */
    private alarmAt: number | null = null;

    constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
      super(ctx, env);
      this.settings = readSettings(env);
      this.sql = new MeteredSql(ctx.storage.sql);
      this.receipts = new Receipts(this.sql, this.settings.receiptRetentionMs);
      this.outbox = new Outbox(this.sql);
      // Single-workspace mode: one bot token for every effect.
      this.client = new SlackClient({ apiUrl: this.settings.apiUrl, token: this.settings.botToken, timeoutMs: this.settings.delivery.timeoutMs });
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

    /** What the delivery loop needs of this shard (public for tests that drive deliverClaimed). */
    get courier(): Courier {
      return {
        outbox: this.outbox, settings: this.settings, rateLimits: this.rateLimits, counters: this.counters,
        shard: this.name,
        perform: (effect, row, token) => this.perform(effect, row, token),
        wakeAt: (at) => this.armAlarm(at),
      };
    }

    private perform(effect: Effect, row: ClaimedRow, token: string): Promise<Verdict> {
      return performEffect(effect, {
        app,
        client: this.client,
        attempts: row.attempts,
        createdAt: row.created_at,
        runTools: () => ({
          client: this.client.forRun(() => triggerExpired(row.attempts, row.created_at, Date.now())),
          step: stepFor(this.outbox, row.idempotency_key, token),
          attempt: row.attempts + 1,
          now: () => Date.now(),
        }),
      });
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

      // New rows are leased to this delivery's immediate attempt as they are written — unless
      // the shard already has many attempts in flight: then acks come first, and the rows
      // wait unleased for the sweep, which delivers with bounded concurrency.
      const immediate = this.immediateInFlight < IMMEDIATE_IN_FLIGHT_MAX;
      const lease = immediate ? { token: crypto.randomUUID(), expiresAt: now + this.settings.delivery.leaseMs } : null;
      const factScoped = (planned: PlannedEffect) => planned.scope === "fact" && inbound.factKey !== undefined;
      // When every effect is keyed by the message, the message's fact receipt is this delivery's
      // dedupe record too: a retry of this event finds it exactly as a twin event does.
      const byFactOnly = plan.effects.length > 0 && plan.ackBody === undefined && plan.effects.every(factScoped);
      let leased: ClaimedRow[] = [];
      const result = this.ctx.storage.transactionSync((): IngestResult => {
        if (!byFactOnly && !this.receipts.recordFirst(inbound, plan.ackBody, now)) {
          return { verdict: "duplicate", ackBody: this.receipts.responseOf(inbound.dedupeKey, now), enqueued: 0 };
        }
        // A fact-scoped effect is enqueued once per message, whichever of its events comes first.
        const effects = plan.effects.filter((planned) => !factScoped(planned)
          || this.receipts.recordFirstFact(outboxKeyOf(inbound, planned), inbound, now));
        if (byFactOnly && effects.length === 0) return { verdict: "duplicate", enqueued: 0 };
        leased = this.outbox.enqueue(inbound, effects, now, lease);
        return { verdict: "accepted", ackBody: plan.ackBody, enqueued: leased.length };
      });
      if (result.verdict !== "accepted") return result;
      this.accepted++;
      // Armed only once the transaction has succeeded, so the alarm mirror never believes in a
      // rolled-back alarm; with no await in between, the alarm write commits with the rows.
      // The sweep is the contract: if the immediate attempt dies with this instance, the
      // alarm reclaims the rows once their lease has run out.
      this.armAlarm(leased.length === 0 ? now + this.settings.receiptRetentionMs : (lease?.expiresAt ?? now));
      if (lease && leased.length > 0) {
        // The immediate attempt, an optimisation of the sweep's own code path. Its fetches
        // leave only after the transaction is durable (the output gate holds them).
        this.immediateInFlight += leased.length;
        void this.deliver(lease.token, leased).finally(() => (this.immediateInFlight -= leased.length));
      }
      return result;
    }

    override async alarm(): Promise<void> {
      // The alarm that woke us is consumed (getAlarm() reads null in here).
      this.alarmAt = null;
      const started = Date.now();
      try {
        await this.sweep(started);
        this.prune(started);
      } catch (error) {
        // Never let the alarm throw: the runtime stops retrying after six failures.
        log("error", "alarm failed; re-arming", { shard: this.name, error: describeError(error) });
      }
      this.armAlarm(this.nextWakeAt());
    }

    /** Claims and delivers due rows in bounded batches until the alarm's time budget is spent. */
    private async sweep(started: number): Promise<void> {
      const { batchSize, leaseMs, alarmBudgetMs } = this.settings.delivery;
      while (Date.now() - started < alarmBudgetMs) {
        const token = crypto.randomUUID();
        const rows = this.outbox.claimBatch(token, Date.now(), leaseMs, batchSize);
        if (rows.length === 0) return;
        await this.deliver(token, rows);
        if (rows.length < batchSize) return;
      }
    }

    private async deliver(token: string, rows: Parameters<typeof deliverClaimed>[2]): Promise<void> {
      try {
        await deliverClaimed(this.courier, token, rows);
      } catch (error) {
        // The leases stay; the alarm already armed for their expiry will retry them.
        log("error", "delivery failed", { shard: this.name, error: describeError(error) });
      }
    }

    private prune(now: number): void {
      const pruned = this.receipts.pruneExpired(now, PRUNE_BATCH);
      if (pruned === PRUNE_BATCH) this.armAlarm(now + 1_000);
    }

    /** When this shard next has work: a due row, an expiring lease, or receipts to prune. */
    private nextWakeAt(): number | null {
      const now = Date.now();
      const prunable = this.receipts.nextPruneAt(now);
      const pruneAt = prunable === null ? null : Math.max(prunable, now + PRUNE_INTERVAL_MS);
      const rowsAt = this.outbox.nextWakeAt();
      if (rowsAt === null) return pruneAt;
      return pruneAt === null ? rowsAt : Math.min(rowsAt, pruneAt);
    }

    /** Moves the alarm earlier (or sets one); never later — an early wake-up just re-arms. */
    private armAlarm(at: number | null): void {
      if (at === null || (this.alarmAt !== null && this.alarmAt <= at)) return;
      this.alarmAt = at;
      this.alarmsSet++;
      // No await: the alarm write commits atomically with the surrounding writes.
      void this.ctx.storage.setAlarm(at);
    }

    // Operations RPCs (used by /admin): cheap reads and explicit, logged operator actions.

    stats(): ShardStats {
      return {
        receipts: this.receipts.count(),
        outbox: this.outbox.countsByStatus(),
        counters: { ...this.counters, accepted: this.accepted, rowsWritten: this.sql.rowsWritten, alarmsSet: this.alarmsSet },
      };
    }

    listParked(limit = 100): ParkedRow[] {
      return this.outbox.listParked(Math.min(Math.max(limit, 1), 1000));
    }

    /** Puts one parked row (or all of them) back in line; the alarm delivers it. */
    replay(key?: string): number {
      const now = Date.now();
      const replayed = this.outbox.replay(now, key);
      if (replayed > 0) this.armAlarm(now);
      log("info", "parked effects replayed", { shard: this.name, key, replayed });
      return replayed;
    }

    discard(key: string): boolean {
      const discarded = this.outbox.discard(key);
      log("info", "parked effect discarded", { shard: this.name, key, discarded });
      return discarded;
    }
  };
}

export type ShardClass = ReturnType<typeof defineShard>;
export type Shard = InstanceType<ShardClass>;
