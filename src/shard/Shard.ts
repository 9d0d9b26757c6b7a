import { DurableObject } from "cloudflare:workers";
import { DeliveryReports } from "../alerts/deliveryReports";
import type { DeliveryReport } from "../alerts/outcomes";
import type { SlackApp } from "../app/types";
import type { Authorize } from "../auth/authorize";
import { alertSettings, type DeliverySettings, deliverySettings, inOAuthMode, recordSettings } from "../config";
import type { Courier } from "../delivery/deliverClaimed";
import { countInto, type DeliveryEvent, DeliveryEvents, newCounters } from "../delivery/events";
import { logDeliveryEvents } from "../delivery/logDeliveryEvents";
import { deliverLeased, sweep } from "../delivery/sweep";
import type { CoordinatorEnv } from "../env";
import { InvalidSetting } from "../errors";
import type { Inbound } from "../inbound/types";
import type { InstallationChange } from "../installations/api";
import { installationCache, type Known } from "../installations/installationCache";
import { isLifecycleEvent } from "../installations/lifecycle";
import { installationStub } from "../installations/stubs";
import { describeError, log } from "../log";
import { MetricStore } from "../metrics/metricStore";
import { MinuteMetrics } from "../metrics/minuteMetrics";
import { Pacer } from "../pacing/pacer";
import type { KeeperOf, PaceKeeper } from "../pacing/pacing";
import type { Pace } from "../pacing/tiers";
import { BackendAnswers } from "../relay/backendAnswers";
import { awaitsBackend, relayRowKey } from "../relay/relayPlan";
import type { BucketLayout } from "../routing/bucketLayouts";
import { servedApp } from "../routing/servedApp";
import { shardFor } from "../routing/shardFor";
import { shardStub } from "../routing/shardStub";
import type { AlertState } from "../watch/alertState";
import type { AnswerTally, HealthWindow } from "../watch/answerWindow";
import type { AppRateLimited, AppRateLimitedSummary } from "../watch/appRateLimited";
import { nextParkedDueAt } from "../watch/parkedBatches";
import type { RegisteredShard } from "../watch/shardRegistry";
import { WATCH, Watch } from "../watch/Watch";
import type { BackendAnswer, IngestResult, ParkedCursor, ParkedRow, ShardApi, ShardMetrics, ShardStats } from "./api";
import { buildCourier } from "./courier";
import { ImmediateAttempts } from "./immediateAttempts";
import { ingestDelivery } from "./ingest";
import { LayoutStore } from "./layoutStore";
import { MeteredSql } from "./meteredSql";
import { applyMigrations, hasSchema } from "./migrations";
import { type ClaimedRow, type Lease, Outbox } from "./outbox";
import { Receipts } from "./receipts";
import { WakeUps } from "./wakeUps";

/** Above this many rows in immediate attempts, new rows wait for one (acks stay fast under load). */
export const IMMEDIATE_IN_FLIGHT_MAX = 64;
/** Above this many rows waiting for an immediate attempt, new rows are left unleased for the sweep. */
export const IMMEDIATE_WAITING_MAX = 4096;
/** Alarms for pruning alone come no more often than this: receipts expire in bulk, not one by one. */
const PRUNE_INTERVAL_MS = 60_000;
/** While delivery is paused by an invalid setting, the alarm looks again this often (and logs why). */
const PAUSED_RETRY_MS = 60_000;

/** Delivery, ready — or paused because a delivery setting is invalid (recording goes on). */
type Delivery = { settings: DeliverySettings; courier: Courier; immediate: ImmediateAttempts } | { paused: unknown };

/**
 * Builds the shard Durable Object class for one app. A shard owns a workspace's slice of
 * deliveries (see routing/) and keeps their receipts and outbox in SQLite. The class is the RPC
 * facade; the work lives in ingest.ts (the transaction), wakeUps.ts (the alarm) and delivery/.
 */
export function defineShard(userApp: SlackApp, authorize: Authorize<CoordinatorEnv>): ShardClass {
  return class Shard extends DurableObject<CoordinatorEnv> implements ShardApi {
    /** OAuth mode: deliveries are recorded only for installed workspaces, lifecycle events included. */
    private readonly oauth: boolean;
    private readonly app: SlackApp;
    private readonly receiptRetentionMs: number;
    private readonly sql: MeteredSql;
    private readonly receipts: Receipts;
    private readonly outbox: Outbox;
    private readonly wakeUps: WakeUps;
    private readonly delivery: Delivery;
    private readonly name: string;
    private readonly counters = newCounters();
    private readonly backendAnswers = new BackendAnswers();
    /** The rate-limit buckets this shard keeps for its workspace (src/pacing/). */
    private readonly pacer = new Pacer();
    /** This minute's metrics, in memory; written (one row) once the minute is over. */
    private readonly metrics = new MinuteMetrics();
    private readonly metricStore: MetricStore;
    /** Rows written (alarms included) up to the last metrics minute written. */
    private rowsMark = 0;
    /** Whether this instance has told the watch it exists (at its first ingest or alarm; then with each minute). */
    private registered = false;
    private accepted = 0;
    /** Whether this shard has its schema; a shard nobody wrote to has none, and reads keep it so. */
    private migrated = false;
    /** The reserved shard "watch" only: alerts and the guard (src/watch/), made at first use. */
    private watchPart?: Watch;

    constructor(ctx: DurableObjectState, env: CoordinatorEnv) {
      super(ctx, env);
      this.name = ctx.id.name ?? ctx.id.toString();
      this.oauth = inOAuthMode(env);
      this.app = planningApp(userApp, env);
      // Recording needs only the receipt retention; without it the shard cannot record (503).
      this.receiptRetentionMs = recordSettings(env).receiptRetentionMs;
      this.sql = new MeteredSql(ctx.storage.sql);
      this.receipts = new Receipts(this.sql, this.receiptRetentionMs);
      this.outbox = new Outbox(this.sql);
      this.metricStore = new MetricStore(this.sql);
      this.wakeUps = new WakeUps(ctx.storage, [
        // Due rows, and leases running out (the sweep reclaims them).
        () => this.outbox.nextWakeAt(),
        (now) => {
          const prunable = this.receipts.nextPruneAt(now);
          return prunable === null ? null : Math.max(prunable, now + PRUNE_INTERVAL_MS);
        },
        // The watch: parked batches coming due.
        () => (this.name === WATCH && this.migrated ? nextParkedDueAt(this.sql) : null),
        // A metrics minute to write once it is over.
        () => this.metrics.dueAt(),
      ]);
      this.delivery = this.prepareDelivery(this.app, authorize, env);
      // Schema first: no request may see a half-migrated shard. This is the only
      // blockConcurrencyWhile — on the request path it would cap the shard's throughput.
      void ctx.blockConcurrencyWhile(async () => {
        if (hasSchema(ctx.storage)) this.migrate();
        await this.wakeUps.load();
      });
    }

    /**
     * The delivery loop, if its settings are valid. If one is not, deliveries are still recorded
     * and acked — their rows wait in the outbox — and every alarm logs which setting to fix, so a
     * configuration mistake delays replies instead of losing events once Slack stops retrying.
     */
    private prepareDelivery(app: SlackApp, authorize: Authorize<CoordinatorEnv>, env: CoordinatorEnv): Delivery {
      let settings: DeliverySettings;
      try {
        // The watch sends no relays: a bad relay setting (which makes the edge answer 500) must
        // not also stop the alert about it.
        settings = deliverySettings(this.name === WATCH ? withoutRelay(env) : env);
      } catch (problem) {
        this.logPaused(problem);
        return { paused: problem };
      }
      // Workspace shards tell the watch how deliveries go (alerts; logged without ALERT_WEBHOOK_URL).
      const reports =
        this.name !== WATCH
          ? new DeliveryReports(this.name, (report) => shardStub(env.SHARD, WATCH).reportDeliveries(report))
          : undefined;
      const events = new DeliveryEvents()
        .subscribe(countInto(this.counters))
        .subscribe(logDeliveryEvents)
        .subscribe(this.backendAnswers.settle)
        .subscribe((event) => this.countDelivery(event));
      if (reports) events.subscribe(reports.onEvent);
      const courier = buildCourier({
        shard: this.name,
        app,
        authorize,
        env,
        settings,
        outbox: this.outbox,
        // Logging is one subscriber of the delivery events; counters are another.
        events,
        backendAnswers: this.backendAnswers,
        alertWebhookUrl: this.name === WATCH ? alertSettings(env).webhookUrl : undefined,
        observe: reports && ((outcome, key) => reports.observe(outcome, key)),
        wakeAt: (at) => this.wakeUps.arm(at),
        pacing: settings.pacing ? this.keeperOf(env, settings.shardBuckets) : undefined,
      });
      const { leaseMs } = settings.delivery;
      const renew = (lease: Lease, rows: readonly ClaimedRow[]) => {
        const expiresAt = Date.now() + leaseMs;
        const held = rows.filter((row) => this.outbox.renewLease(row.idempotency_key, lease.token, expiresAt));
        if (held.length > 0) this.wakeUps.arm(expiresAt);
        return { expiresAt, rows: held };
      };
      const immediate = new ImmediateAttempts((token, rows) => deliverLeased(courier, token, rows), renew, {
        maxInFlight: IMMEDIATE_IN_FLIGHT_MAX,
        maxWaiting: IMMEDIATE_WAITING_MAX,
        minLeaseLeftMs: leaseMs / 2 + settings.delivery.timeoutMs,
      });
      return { settings, courier, immediate };
    }

    /**
     * Who keeps a rate-limit bucket: one shard of the workspace, by the bucket's hash, so all of
     * its shards pace a channel (or a method) as one. This shard's own pacer when it is that shard.
     */
    private keeperOf(env: CoordinatorEnv, buckets: number): KeeperOf {
      const local: PaceKeeper = {
        reserve: (bucket, pace, holder) => this.pacer.reserve(bucket, pace, holder, Date.now()),
        spend: (bucket, holder) => this.pacer.spend(bucket, holder),
        blockUntil: (bucket, until, holder) => this.pacer.blockUntil(bucket, until, holder, Date.now()),
      };
      return (workspace, bucket) => {
        const keeper = shardFor(workspace, `pace:${bucket}`, buckets);
        if (keeper === this.name) return local;
        const stub = shardStub(env.SHARD, keeper);
        return {
          reserve: (b, pace, holder) => stub.reservePace(b, pace, holder),
          spend: (b, holder) => stub.spendPace(b, holder),
          blockUntil: (b, until, holder) => stub.blockPace(b, until, holder),
        };
      };
    }

    private logPaused(problem: unknown): void {
      const setting = problem instanceof InvalidSetting ? problem.setting : undefined;
      log("error", "delivery paused: a setting is invalid; deliveries are recorded and wait", {
        shard: this.name,
        setting,
        error: describeError(problem),
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
    ingest(inbound: Inbound): IngestResult | Promise<IngestResult> {
      // Lifecycle events are the store's to judge (it knows the installation's history): an
      // uninstall's app_uninstalled and tokens_revoked come in any order, and both must land.
      if (!this.oauth || isLifecycleEvent(inbound)) return this.record(inbound);
      // Installed? Known without waiting in steady state; asked of the store on a cold cache,
      // which decrypts nothing and never refreshes on the ack path.
      const lookup = () => installationStub(this.env, inbound.workspace).status();
      const known = installationCache.peek(inbound.workspace, Date.now(), "status", lookup);
      if (known === undefined) {
        return installationCache
          .status(inbound.workspace, Date.now(), lookup)
          .then((answer) => (answer.status === "installed" ? this.record(inbound) : notInstalled(answer)));
      }
      return known.status === "installed" ? this.record(inbound) : notInstalled(known);
    }

    /** Records a delivery of a workspace this shard serves: the transaction is ingest.ts. */
    private record(inbound: Inbound): IngestResult {
      this.migrate();
      const now = Date.now();
      if (!this.registered) this.register(now);
      // New rows are leased to this delivery's immediate attempt as they are written; with many
      // attempts in flight they wait for one in memory, still leased (immediateAttempts.ts).
      // Only when that line is long too are they written unleased, for the sweep.
      const delivery = "courier" in this.delivery ? this.delivery : undefined;
      const lease = delivery?.immediate.takesMore()
        ? { token: crypto.randomUUID(), expiresAt: now + delivery.settings.delivery.leaseMs }
        : null;
      const stores = { storage: this.ctx.storage, receipts: this.receipts, outbox: this.outbox };
      const { result, leased } = ingestDelivery(stores, this.app, inbound, now, lease);
      // Delivered rows waiting to be deleted share this turn's commit (completions.ts).
      delivery?.courier.completions.flush();
      this.metrics.count(
        result.verdict === "accepted" ? "accepted" : result.verdict === "duplicate" ? "duplicates" : "ignored",
        now,
      );
      // The ack waits for this record: from the edge handing the delivery over to here is most of it.
      if (inbound.receivedAt !== undefined) this.metrics.ack(now - inbound.receivedAt, now);
      // The minute is written when it is over, even if nothing else wakes the shard then.
      this.wakeUps.arm(this.metrics.dueAt());
      if (result.verdict !== "accepted") return result;
      this.accepted++;
      // Armed only once the transaction has succeeded, so the alarm mirror never believes in a
      // rolled-back alarm; with no await in between, the alarm write commits with the rows.
      // The sweep is the contract: if the immediate attempt dies with this instance, the
      // alarm reclaims the rows once their lease has run out.
      const pausedAt = delivery ? now : now + PAUSED_RETRY_MS;
      this.wakeUps.arm(leased.length === 0 ? now + this.receiptRetentionMs : (lease?.expiresAt ?? pausedAt));
      if (lease && delivery && leased.length > 0) {
        // Relay mode: a command's or interaction's backend may answer in time for the ack.
        const relayKey = awaitsBackend(inbound, delivery.settings.relay, result.ackBody)
          ? relayRowKey(inbound.dedupeKey)
          : undefined;
        if (relayKey !== undefined && leased.some((row) => row.idempotency_key === relayKey)) {
          this.backendAnswers.expect(relayKey, now);
          result.awaitsBackend = true;
        }
        // The immediate attempt, an optimisation of the sweep's own code path. Its fetches
        // leave only after the transaction is durable (the output gate holds them). A backend
        // that may answer in time for the ack does not wait in line.
        delivery.immediate.offer(lease, leased, result.awaitsBackend === true);
      }
      return result;
    }

    override async alarm(): Promise<void> {
      this.wakeUps.consumed();
      const started = Date.now();
      try {
        this.migrate();
        this.writeMetrics(started);
        if (!this.registered) this.register(started);
        if (this.name === WATCH) this.watchDue(started);
        if ("courier" in this.delivery) await sweep(this.delivery.courier, started);
        else this.logPaused(this.delivery.paused);
        // Whole generations expire together (a table each); if the table of before 0005 still
        // holds more than one batch, come back soon.
        if (this.receipts.pruneExpired(started) > 0) this.wakeUps.arm(started + 1_000);
      } catch (error) {
        // Never let the alarm throw: the runtime stops retrying after six failures.
        log("error", "alarm failed; re-arming", { shard: this.name, error: describeError(error) });
      }
      // Without a schema (its migration failed) the wake sources have no tables to read; with
      // delivery paused, due rows would wake us at once: either way, look again a minute later.
      const now = Date.now();
      if (!this.migrated) this.wakeUps.arm(now + PAUSED_RETRY_MS);
      else this.wakeUps.rearm(now, "courier" in this.delivery ? now : now + PAUSED_RETRY_MS);
    }

    /**
     * Told by the installation store (to every bucket of the workspace): forget what this isolate
     * cached, and when the installation is gone, park the workspace's waiting effects with why.
     */
    installationChanged(workspace: string, change: InstallationChange): number {
      const now = Date.now();
      installationCache.apply(workspace, change, now);
      if (change.status === "installed" || !this.migrated) return 0;
      const parked = this.outbox.parkWorkspace(workspace, change.reason, now, "installation");
      if (parked > 0)
        log("warn", "effects parked: installation gone", { shard: this.name, workspace, parked, reason: change.reason });
      return parked;
    }

    /** Delivery outcomes into this minute's metrics (after the commit, off the ack path). */
    private countDelivery(event: DeliveryEvent): void {
      const now = Date.now();
      if (event.type === "delivered") this.metrics.delivered(now - event.recordedAt, now);
      else if (event.type === "retried" || event.type === "parked" || event.type === "fenceRejected")
        this.metrics.count(event.type === "fenceRejected" ? "fenceRejections" : event.type, now);
      else return;
      this.wakeUps.arm(this.metrics.dueAt());
    }

    /**
     * Writes each metrics minute that is over — one row each — and tells the watch this shard is
     * alive (its registry: at most once a minute). Runs in the alarm, which every counted outcome
     * arms for the minute's end: nothing of it is on the ack path.
     */
    private writeMetrics(now: number): void {
      const minutes = this.migrated ? this.metrics.take(now) : [];
      if (minutes.length === 0) return;
      const written = this.sql.rowsWritten + this.wakeUps.alarmsSet;
      const depth = this.metricStore.outboxDepth();
      for (const [i, minute] of minutes.entries()) {
        // The rows written since the last minute written are all put on the newest one.
        minute.counts.rowsWritten = i === minutes.length - 1 ? written - this.rowsMark : 0;
        try {
          this.metricStore.save({ ...minute, ...depth });
        } catch (error) {
          log("warn", "metrics minute not written", { shard: this.name, error: describeError(error) });
        }
      }
      this.rowsMark = written;
      this.register(now);
    }

    /** Tells the watch's registry this shard is alive: at its first ingest, then once per metrics minute. */
    private register(now: number): void {
      if (this.name === WATCH) return;
      this.registered = true;
      void Promise.resolve(shardStub(this.env.SHARD, WATCH).shardSeen(this.name, now)).catch((error: unknown) =>
        log("warn", "shard not registered with the watch", { shard: this.name, error: describeError(error) }),
      );
    }

    /** Metric minutes from `fromMinute` on, the minute in progress, and the outbox now: for the console. */
    metricsSince(fromMinute: number): ShardMetrics {
      const live = this.metrics.peek();
      const unwritten = this.metrics.unwritten();
      if (!this.migrated) return { minutes: [], unwritten, live, outbox: { pending: 0, parked: 0, oldestPendingAt: null } };
      const { pending, parked } = this.outbox.countsByStatus();
      return {
        minutes: this.metricStore.since(fromMinute),
        unwritten,
        live,
        outbox: { pending, parked, oldestPendingAt: this.metricStore.outboxDepth().oldestPendingAt },
      };
    }

    // The watch (the reserved shard "watch"; src/watch/): alerts and the auto-disable guard.

    private watch(): Watch {
      this.migrate();
      if (!this.watchPart) {
        const settings = alertSettings(this.env);
        for (const problem of settings.problems)
          log("error", "alert setting invalid; its default is used", { setting: problem.setting, error: problem.message });
        this.watchPart = new Watch({ sql: this.sql, outbox: this.outbox, settings, wakeAt: (at) => this.wakeUps.arm(at) });
      }
      return this.watchPart;
    }

    /** The watch's part of its alarm; whatever goes wrong there, the sweep still delivers the alerts. */
    private watchDue(now: number): void {
      try {
        this.watch().due(now);
      } catch (error) {
        log("error", "watch: parked batches not alerted", { error: describeError(error) });
      }
    }

    countAnswers(tally: AnswerTally): void {
      this.watch().countAnswers(tally, Date.now());
    }

    reportDeliveries(report: DeliveryReport): void {
      this.watch().reportDeliveries(report, Date.now());
    }

    health(): HealthWindow & { app_rate_limited: AppRateLimitedSummary } {
      return this.watch().health(Date.now());
    }

    appRateLimited(notice: AppRateLimited): void {
      this.watch().appRateLimited(notice, Date.now());
    }

    alertState(): AlertState {
      return this.watch().alertState(Date.now());
    }

    shardSeen(shard: string, at: number): void {
      this.watch().shardSeen(shard, at);
    }

    shards(since: number): RegisteredShard[] {
      return this.watch().shards(since);
    }

    // Bucket layouts (a workspace's bucket 0 keeps them; README "Sharding").

    bucketLayouts(): BucketLayout[] {
      return this.migrated ? new LayoutStore(this.sql).list() : [];
    }

    changeBuckets(buckets: number, shardBuckets: number): BucketLayout[] {
      this.migrate();
      const layouts = new LayoutStore(this.sql).change(buckets, shardBuckets, Date.now());
      log("info", "bucket layout changed", { shard: this.name, buckets, layouts: JSON.stringify(layouts) });
      return layouts;
    }

    // Pacing: the buckets this shard keeps, for the workspace's other shards.

    reservePace(bucket: string, pace: Pace, holder: string): number {
      return this.pacer.reserve(bucket, pace, holder, Date.now());
    }

    spendPace(bucket: string, holder: string): void {
      this.pacer.spend(bucket, holder);
    }

    blockPace(bucket: string, until: number, holder: string): number {
      return this.pacer.blockUntil(bucket, until, holder, Date.now());
    }

    backendAnswer(dedupeKey: string, waitMs: number): Promise<BackendAnswer | null> {
      return this.backendAnswers.collect(relayRowKey(dedupeKey), waitMs);
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
      return this.replayParked(key === undefined ? null : [key]);
    }

    listParkedBefore(before: ParkedCursor | null, limit: number): ParkedRow[] {
      if (!this.migrated) return [];
      return this.outbox.listParkedBefore(before, Math.min(Math.max(limit, 1), 1000));
    }

    replayParked(keys: string[] | null): number {
      const now = Date.now();
      const replayed = this.migrated ? this.outbox.replay(now, keys) : 0;
      if (replayed > 0) this.wakeUps.arm(now);
      log("info", "parked effects replayed", { shard: this.name, keys: whichKeys(keys), replayed });
      return replayed;
    }

    discardParked(keys: string[] | null): number {
      const discarded = this.migrated ? this.outbox.discardParked(keys) : 0;
      log("info", "parked effects discarded", { shard: this.name, keys: whichKeys(keys), discarded });
      return discarded;
    }

    discard(key: string): boolean {
      return this.discardParked([key]) === 1;
    }
  };
}

/** Which parked rows an operation was for, as a log line says it: the key, a count, or "all". */
const whichKeys = (keys: string[] | null) => (keys === null ? "all" : keys.length === 1 ? keys[0] : `${keys.length} keys`);

/** The env without relay mode's settings (the watch relays nothing). */
function withoutRelay(env: CoordinatorEnv): CoordinatorEnv {
  const { RELAY_URL: _, ...rest } = env;
  return rest;
}

/**
 * The app the shard plans with: as the edge does (routing/servedApp.ts). With a mode's settings
 * invalid the edge refuses every request (500), so the user's app alone is only a fallback.
 */
function planningApp(app: SlackApp, env: CoordinatorEnv): SlackApp {
  try {
    return servedApp(app, env);
  } catch {
    return app;
  }
}

const notInstalled = (known: Exclude<Known, { status: "installed" }>): IngestResult => ({
  verdict: "not_installed",
  reason: known.reason,
  enqueued: 0,
});

/** A shard as its callers and wrangler see it: a Durable Object with the RPC surface of api.ts. */
export type Shard = DurableObject<CoordinatorEnv> & ShardApi;
/** The shard class `createCoordinator` returns, for the Worker to export under the name wrangler.toml binds. */
export type ShardClass = (new (ctx: DurableObjectState, env: CoordinatorEnv) => Shard) & { prototype: Shard };
