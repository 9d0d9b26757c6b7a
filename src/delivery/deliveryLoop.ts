import type { SlackApp } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import { type ReadyKinds, readyKinds } from "../effects/registry";
import type { Inbound } from "../inbound/types";
import type { PaceKeeper } from "../pacing/pacing";
import { partSettings, type RoleParts, type ShardParts, shardParts } from "../parts/shardParts";
import { countInto, DeliveryEvents, newCounters } from "../platform/deliveryEvents";
import { InvalidSetting } from "../platform/errors";
import { deliveryBudgetOf, type InvocationMeter, InvocationMeters, SPENT_RESUME_MS } from "../platform/invocationMeter";
import { describeError, log } from "../platform/log";
import { OutboundCalls } from "../platform/outboundCalls";
import type { WakeUps } from "../platform/wakeUps";
import type { ClaimedRow, Lease, Outbox } from "../recording/outbox";
import { BackendResponses } from "../relay/backendResponses";
import { awaitsBackend, relayRowKey } from "../relay/relayPlan";
import type { CoordinatorEnv } from "../rpc/env";
import type { BackendResponse, IngestResult } from "../rpc/shard";
import { watchStub } from "../rpc/shardStub";
import type { DeliverySettings } from "../settings";
import { buildCourier } from "./buildCourier";
import type { Courier } from "./courier";
import { deliverLeased } from "./deliverClaimed";
import { DeliveryReports } from "./deliveryReports";
import { ImmediateAttempts, renewingIn } from "./immediateAttempts";
import { logDeliveryEvents } from "./logDeliveryEvents";
import { loopSettings } from "./loopSettings";
import { OldestFirst } from "./oldestFirst";
import { keeperOf } from "./paceKeeping";
import { sweep } from "./sweep";

/** Above this many rows in immediate attempts, new rows wait for one (acks stay fast under load). */
export const IMMEDIATE_IN_FLIGHT_MAX = 64;
/** Above this many rows waiting for an immediate attempt, new rows are left unleased for the sweep. */
export const IMMEDIATE_WAITING_MAX = 4096;
/** The outbox's walk goes on at most this long an alarm, so an ingest never waits longer behind it. */
export const WALK_BUDGET_MS = 20;

export interface DeliveryLoopInputs {
  shard: string;
  /** A workspace shard tells the watch how its deliveries go; the watch delivers alerts and relays nothing. */
  role: "workspace" | "watch";
  app: SlackApp;
  authorize: Authorize<CoordinatorEnv>;
  env: CoordinatorEnv;
  outbox: Outbox;
  /** The shard's alarm: the loop registers its due rows and moves it earlier (a row due again, a lease to reclaim). */
  wakeUps: Pick<WakeUps, "arm" | "register">;
  /** The rate keys this shard keeps itself (a workspace shard's pace keeping). */
  pace?: PaceKeeper;
  /** The parts this role keeps besides every shard's (a workspace shard's thread contexts, for its runs): none in a bare loop. */
  roleParts?: RoleParts;
}

/** Delivery when its settings are valid: the courier the sweep and the immediate attempts share. */
export interface ReadyDelivery {
  settings: DeliverySettings;
  courier: Courier;
  immediate: ImmediateAttempts<InvocationMeter>;
  /** Past the line's capacity, rows go in the order they came (oldestFirst.ts). */
  oldestFirst: OldestFirst;
}

/**
 * A shard's delivery loop, wired from its inputs — the one wiring the Durable Object and the
 * tests use: the courier (delivery/), its events and their subscribers (counters, log, backend
 * responses, reports to the watch), pacing, and the immediate attempts after an ingest. If a
 * delivery setting is invalid the loop is paused: deliveries are still recorded and acked — their
 * rows wait in the outbox — and every alarm logs which setting to fix, so a configuration mistake
 * delays replies instead of losing events once Slack stops retrying.
 */
export class DeliveryLoop {
  readonly counters = newCounters();
  readonly backendResponses = new BackendResponses();
  /** Every settled attempt; other parts subscribe (the shard's metrics). */
  readonly events: DeliveryEvents;
  /** Null while paused by an invalid setting. */
  readonly ready: ReadyDelivery | null = null;
  /** The shard's parts (src/parts/shardParts.ts): the ingest, the alarm and each attempt use them all. */
  readonly parts: ShardParts;
  private readonly paused: unknown;

  constructor(private readonly inputs: DeliveryLoopInputs) {
    const { shard, role, env, outbox, wakeUps } = inputs;
    // Due rows, and leases running out (the sweep reclaims them): an alarm brings a meter of its own (invocationMeter.ts).
    wakeUps.register(() => outbox.nextWakeAt());
    const wakeAt = (at: number) => wakeUps.arm(at);
    // Rows the outbox's walk finds due, and the walk's own next step (outboxWalk.ts), come by the alarm.
    outbox.onDue = wakeAt;
    const turnsMayGo = (conversation: string) => this.turnsMayGo(conversation);
    // Parsed before the parts, which read theirs (PartWorld.settings); a bad one pauses delivery below.
    const { settings, problem } = loopSettings(role, env);
    this.parts = shardParts({ shard, outbox, wakeAt, turnsMayGo, settings: partSettings(env, settings) }, inputs.roleParts);
    // Each part's own work (waits a day past their deadline pruned) comes by the alarm.
    wakeUps.register((now) => this.parts.wakeAt(now));
    // Logging is one subscriber of the delivery events; counters are another.
    this.events = new DeliveryEvents().subscribe(countInto(this.counters)).subscribe(logDeliveryEvents);
    this.events.subscribe(this.backendResponses.settle);
    let kinds: ReadyKinds;
    try {
      if (settings === null) throw problem;
      // Each effect kind's own dependencies, once per shard; a bad setting of a kind's pauses delivery too.
      const threadContexts = this.parts.threadContexts?.store;
      kinds = readyKinds({ role, app: inputs.app, env, settings, backendResponses: this.backendResponses, threadContexts });
    } catch (invalid) {
      this.paused = invalid;
      this.logPaused();
      return;
    }
    // Workspace shards tell the watch how deliveries go (alerts; logged without ALERT_WEBHOOK_URL).
    const reports =
      role === "workspace" ? new DeliveryReports(shard, (report) => watchStub(env.SHARD).reportDeliveries(report)) : undefined;
    if (reports) this.events.subscribe(reports.onEvent);
    const courier = buildCourier({
      ...inputs,
      wakeAt,
      settings,
      events: this.events,
      kinds,
      backendResponses: this.backendResponses,
      // The shard's one door: its sweep's and its immediate attempts' calls share six connections and one meter.
      outbound: new OutboundCalls(new InvocationMeters(deliveryBudgetOf(settings.delivery.subrequestsPerInvocation), shard)),
      parts: this.parts,
      turnEnded: (conversation: string, key: string, meter?: InvocationMeter) => this.turnsMayGo(conversation, key, meter),
      observe: reports && ((outcome, key) => reports.observe(outcome, key)),
      pacing: settings.pacing ? keeperOf(env.SHARD, shard, settings.shardBuckets, inputs.pace) : undefined,
    });
    const { leaseMs } = settings.delivery;
    const renew = renewingIn(outbox, leaseMs, wakeAt);
    const minLeaseLeftMs = leaseMs / 2 + settings.delivery.timeoutMs;
    const limits = { maxInFlight: IMMEDIATE_IN_FLIGHT_MAX, maxWaiting: IMMEDIATE_WAITING_MAX, minLeaseLeftMs };
    const deliver = (token: string, rows: readonly ClaimedRow[], meter?: InvocationMeter) =>
      deliverLeased(courier, token, rows, undefined, meter);
    // Rows in line that an attempt's spent invocation did not let go wait for the next one: an ingest, or the alarm.
    const immediate = new ImmediateAttempts(deliver, renew, limits, undefined, () => wakeAt(Date.now() + SPENT_RESUME_MS));
    const oldestFirst = new OldestFirst(outbox, immediate, { leaseMs, batchSize: settings.delivery.batchSize }, wakeAt);
    this.ready = { settings, courier, immediate, oldestFirst };
  }

  /**
   * The lease for the rows an ingest of `inbound` is about to write: they go to its immediate attempt (at
   * once, or in line, still leased: immediateAttempts.ts). Null — written unleased, for the sweep — when
   * that line is long too or older rows wait for the sweep (oldestFirst.ts), or delivery is paused.
   */
  leaseFor(now: number, meter = this.ready?.courier.meters.current, inbound?: Inbound): Lease | null {
    const ready = this.ready;
    if (!ready) return null;
    // Spent, an attempt would only postpone its rows; lean, rows go one at a time: either way the sweep takes them.
    const leftAnyway = meter?.spent === true || meter?.lean === true;
    // A person waits for the ack, which waits for the backend's answer: such rows start at once, never left behind.
    const atOnce = !leftAnyway && inbound !== undefined && this.startsAtOnce(inbound);
    if (!atOnce && ready.oldestFirst.leavesBehind(leftAnyway)) return null;
    // Rows that will wait in line are leased to their attempt's token too: beginning it writes nothing
    // (a take-over after a crash then looks their posts up first: docs/reference/delivery.md "Uncertain posts").
    return { token: crypto.randomUUID(), expiresAt: now + ready.settings.delivery.leaseMs };
  }

  /** A relayed command or interaction whose ack Slack shows (relay/relayPlan.ts): its backend may answer it within RELAY_SYNC_MS. */
  private startsAtOnce(inbound: Inbound): boolean {
    return this.ready !== null && awaitsBackend(inbound, this.ready.settings.relay, undefined);
  }

  /** An ingest or an alarm begins: a meter of its own for its work, the shard's window renewed (platform/invocationMeter.ts). */
  invoked(): void {
    this.ready?.courier.meters.invoked();
  }

  /**
   * The immediate attempt of the rows an accepted ingest leased to `lease`: an optimisation of
   * the sweep's own code path. Its fetches leave only after the transaction is durable (the
   * output gate holds them). A relayed command's backend may respond in time for the ack: its rows
   * do not wait in line (`leaseFor` gave them a lease to start at once), and the result says so.
   */
  attempt(inbound: Inbound, result: IngestResult, lease: Lease, leased: readonly ClaimedRow[], now: number): void {
    const ready = this.ready;
    if (!ready) return;
    const relayKey = awaitsBackend(inbound, ready.settings.relay, result.ackBody) ? relayRowKey(inbound.dedupeKey) : undefined;
    if (relayKey !== undefined && leased.some((row) => row.idempotency_key === relayKey)) {
      this.backendResponses.expect(relayKey, now);
      result.awaitsBackend = true;
    }
    // The ingest's own work: its meter (and rows that waited in line, which go first).
    ready.immediate.offer(lease, leased, this.startsAtOnce(inbound), ready.courier.meters.current);
  }

  /** After an ingest, and as an alarm begins: while rows wait for the sweep, the oldest start as attempts are free (oldestFirst.ts). */
  catchUp(now: number): void {
    this.ready?.oldestFirst.catchUp(now, this.ready.courier.meters.current);
  }

  /**
   * A turn of `conversation` ended or was parked, so its thread may be free: the turns it held back
   * that are due now are claimed (one statement, the sweep's own rule: recording/outboxTurns.ts) and
   * attempted at once. Rows it cannot take now (the line of immediate attempts is long) are the sweep's.
   */
  turnsMayGo(conversation: string, ended?: string, meter = this.ready?.courier.meters.current): void {
    const ready = this.ready;
    // A thread's lead that ended is forgotten by the shard (recording/outboxTurns.ts).
    if (ended !== undefined) this.inputs.outbox.turns.ended(conversation, ended);
    if (!this.inputs.outbox.turns.pending(conversation)) return;
    const now = Date.now();
    const lease = this.leaseFor(now, meter);
    if (!ready || !lease) {
      // Held turns are last among the waiting rows: made due, the sweep finds them.
      if (this.inputs.outbox.turns.release(conversation, now) > 0) this.inputs.wakeUps.arm(now);
      return;
    }
    const rows = this.inputs.outbox.claimBatch(
      lease.token,
      now,
      ready.settings.delivery.leaseMs,
      ready.settings.delivery.batchSize,
      conversation,
    );
    if (rows.length === 0) return;
    // The sweep is the contract: if this instance dies, the alarm reclaims them once the lease runs out.
    this.inputs.wakeUps.arm(lease.expiresAt);
    // The work of the invocation whose turn ended (its meter), or of the one that began last.
    ready.immediate.offer(lease, rows, false, meter);
  }

  /** The alarm's part: the outbox's walk goes on a while (outboxWalk.ts), then due rows are claimed and delivered. */
  sweep(now: number): Promise<void> | undefined {
    // An alarm is an invocation of its own.
    this.invoked();
    this.inputs.outbox.walkOn(WALK_BUDGET_MS);
    if (this.ready) {
      // Rows left in line by an invocation whose subrequests were spent go as this alarm's work.
      this.ready.immediate.resume(this.ready.courier.meters.current);
      this.catchUp(now);
      return sweep(this.ready.courier, now);
    }
    this.logPaused();
  }

  backendResponse(dedupeKey: string, waitMs: number): Promise<BackendResponse | null> {
    return this.backendResponses.collect(relayRowKey(dedupeKey), waitMs);
  }

  private logPaused(): void {
    const problem = this.paused;
    const setting = problem instanceof InvalidSetting ? problem.setting : undefined;
    log("error", "delivery paused: a setting is invalid; deliveries are recorded and wait", {
      shard: this.inputs.shard,
      setting,
      error: describeError(problem),
    });
  }
}
