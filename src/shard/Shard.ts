import { DurableObject } from "cloudflare:workers";
import type { SlackApp } from "../app/types";
import type { Authorize } from "../auth/authorize";
import { type ShardSettings, shardSettings } from "../config";
import type { Courier } from "../delivery/deliverClaimed";
import { countInto, DeliveryEvents, newCounters } from "../delivery/events";
import { logDeliveryEvents } from "../delivery/logDeliveryEvents";
import { deliverLeased, sweep } from "../delivery/sweep";
import type { CoordinatorEnv } from "../env";
import type { Inbound } from "../inbound/types";
import { describeError, log } from "../log";
import type { IngestResult, ParkedRow, ShardApi, ShardStats } from "./api";
import { buildCourier } from "./courier";
import { ingestDelivery } from "./ingest";
import { MeteredSql } from "./meteredSql";
import { applyMigrations, hasSchema } from "./migrations";
import { Outbox } from "./outbox";
import { Receipts } from "./receipts";
import { WakeUps } from "./wakeUps";

/** Above this many rows in immediate attempts, new rows go to the sweep (acks stay fast under load). */
export const IMMEDIATE_IN_FLIGHT_MAX = 64;
/** Receipts deleted per alarm; the rest waits for the next alarm so no invocation runs long. */
const PRUNE_BATCH = 500;
/** Alarms for pruning alone come no more often than this: receipts expire in bulk, not one by one. */
const PRUNE_INTERVAL_MS = 60_000;

/**
 * Builds the shard Durable Object class for one app. A shard owns a workspace's slice of
 * deliveries (see routing/) and keeps their receipts and outbox in SQLite. The class is the RPC
 * facade; the work lives in ingest.ts (the transaction), wakeUps.ts (the alarm) and delivery/.
 */
export function defineShard(app: SlackApp, authorize: Authorize<CoordinatorEnv>): ShardClass {
  return class Shard extends DurableObject<CoordinatorEnv> implements ShardApi {
    private readonly settings: ShardSettings;
    private readonly sql: MeteredSql;
    private readonly receipts: Receipts;
    private readonly outbox: Outbox;
    private readonly wakeUps: WakeUps;
    private readonly courier: Courier;
    private readonly counters = newCounters();
    private accepted = 0;
    /** Rows whose immediate attempt is running now. */
    private immediateInFlight = 0;
    /** Whether this shard has its schema; a shard nobody wrote to has none, and reads keep it so. */
    private migrated = false;

    constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
      super(ctx, env);
      this.settings = shardSettings(env);
      this.sql = new MeteredSql(ctx.storage.sql);
      this.receipts = new Receipts(this.sql, this.settings.receiptRetentionMs);
      this.outbox = new Outbox(this.sql);
      this.wakeUps = new WakeUps(ctx.storage, [
        // Due rows, and leases running out (the sweep reclaims them).
        () => this.outbox.nextWakeAt(),
        (now) => {
          const prunable = this.receipts.nextPruneAt(now);
          return prunable === null ? null : Math.max(prunable, now + PRUNE_INTERVAL_MS);
        },
      ]);
      this.courier = buildCourier({
        shard: ctx.id.name ?? ctx.id.toString(),
        app,
        authorize,
        env,
        settings: this.settings,
        outbox: this.outbox,
        // Logging is one subscriber of the delivery events; counters are another.
        events: new DeliveryEvents().subscribe(countInto(this.counters)).subscribe(logDeliveryEvents),
        wakeAt: (at) => this.wakeUps.arm(at),
      });
      // Schema first: no request may see a half-migrated shard. This is the only
      // blockConcurrencyWhile — on the request path it would cap the shard's throughput.
      void ctx.blockConcurrencyWhile(async () => {
        if (hasSchema(ctx.storage)) this.migrate();
        await this.wakeUps.load();
      });
    }

    /** Applies pending migrations; synchronous, so it commits before any other request runs. */
    private migrate(): void {
      if (this.migrated) return;
      applyMigrations(this.ctx.storage);
      this.migrated = true;
    }

    /**
     * Records one delivery: receipt, outbox rows and alarm in ONE transaction. The RPC
     * reply is held by the output gate until that transaction is durable, so the Worker
     * can never answer Slack 200 for something that is not stored.
     */
    ingest(inbound: Inbound): IngestResult {
      this.migrate();
      const now = Date.now();
      // New rows are leased to this delivery's immediate attempt as they are written — unless
      // the shard already has many attempts in flight: then acks come first, and the rows
      // wait unleased for the sweep, which delivers with bounded concurrency.
      const immediate = this.immediateInFlight < IMMEDIATE_IN_FLIGHT_MAX;
      const lease = immediate ? { token: crypto.randomUUID(), expiresAt: now + this.settings.delivery.leaseMs } : null;
      const stores = { storage: this.ctx.storage, receipts: this.receipts, outbox: this.outbox };
      const { result, leased } = ingestDelivery(stores, app, inbound, now, lease);
      if (result.verdict !== "accepted") return result;
      this.accepted++;
      // Armed only once the transaction has succeeded, so the alarm mirror never believes in a
      // rolled-back alarm; with no await in between, the alarm write commits with the rows.
      // The sweep is the contract: if the immediate attempt dies with this instance, the
      // alarm reclaims the rows once their lease has run out.
      this.wakeUps.arm(leased.length === 0 ? now + this.settings.receiptRetentionMs : (lease?.expiresAt ?? now));
      if (lease && leased.length > 0) {
        // The immediate attempt, an optimisation of the sweep's own code path. Its fetches
        // leave only after the transaction is durable (the output gate holds them).
        this.immediateInFlight += leased.length;
        void deliverLeased(this.courier, lease.token, leased).finally(() => (this.immediateInFlight -= leased.length));
      }
      return result;
    }

    override async alarm(): Promise<void> {
      this.wakeUps.consumed();
      const started = Date.now();
      try {
        this.migrate();
        await sweep(this.courier, started);
        // Whole generations expire together; if more remain than one batch, come back soon.
        if (this.receipts.pruneExpired(started, PRUNE_BATCH) === PRUNE_BATCH) this.wakeUps.arm(started + 1_000);
      } catch (error) {
        // Never let the alarm throw: the runtime stops retrying after six failures.
        log("error", "alarm failed; re-arming", { shard: this.courier.shard, error: describeError(error) });
      }
      // Without a schema (its migration failed) the wake sources have no tables to read: try again later.
      if (this.migrated) this.wakeUps.rearm();
      else this.wakeUps.arm(Date.now() + PRUNE_INTERVAL_MS);
    }

    // Operations RPCs (used by /admin): cheap reads and explicit, logged operator actions.
    // On a shard that was never written they answer empty, and create nothing.

    stats(): ShardStats {
      const counters = {
        ...this.counters,
        accepted: this.accepted,
        rowsWritten: this.sql.rowsWritten,
        alarmsSet: this.wakeUps.alarmsSet,
      };
      if (!this.migrated) return { receipts: 0, outbox: { pending: 0, parked: 0 }, counters };
      return { receipts: this.receipts.count(), outbox: this.outbox.countsByStatus(), counters };
    }

    listParked(limit = 100): ParkedRow[] {
      if (!this.migrated) return [];
      return this.outbox.listParked(Math.min(Math.max(limit, 1), 1000));
    }

    /** Puts one parked row (or all of them) back in line; the alarm delivers it. */
    replay(key?: string): number {
      const now = Date.now();
      const replayed = this.migrated ? this.outbox.replay(now, key) : 0;
      if (replayed > 0) this.wakeUps.arm(now);
      log("info", "parked effects replayed", { shard: this.courier.shard, key, replayed });
      return replayed;
    }

    discard(key: string): boolean {
      const discarded = this.migrated && this.outbox.discard(key);
      log("info", "parked effect discarded", { shard: this.courier.shard, key, discarded });
      return discarded;
    }
  };
}

/** A shard as its callers and wrangler see it: a Durable Object with the RPC surface of api.ts. */
export type Shard = DurableObject<CoordinatorEnv> & ShardApi;
/** The shard class `createCoordinator` returns, for the Worker to export under the name wrangler.toml binds. */
export type ShardClass = (new (ctx: DurableObjectState, env: CoordinatorEnv) => Shard) & { prototype: Shard };
