import type { Plan, SlackApp, TurnLimit } from "../app/contract";
import type { DeliveryLoop } from "../delivery/deliveryLoop";
import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import { installationCache, type Known } from "../installations/installationCache";
import { isLifecycleEvent } from "../installations/lifecycle";
import { log } from "../platform/log";
import { inSpan } from "../platform/spans";
import { EventStories } from "../recording/eventStoryRows";
import { FoldedReceipts } from "../recording/foldedReceipts";
import { type IngestStores, ingestDelivery } from "../recording/ingest";
import type { Outbox } from "../recording/outbox";
import { OutboxFiling } from "../recording/outboxFiling";
import { Receipts } from "../recording/receipts";
import { rerunLinks } from "../recording/rerunLinks";
import { PAUSED_RETRY_MS, type ShardStorage } from "../recording/shardStorage";
import type { CoordinatorEnv } from "../rpc/env";
import type { EventFilter, EventStory, EventSummary } from "../rpc/eventStories";
import { installationStub } from "../rpc/installationStubs";
import type { InstallationChange } from "../rpc/installations";
import type { IngestResult } from "../rpc/shard";
import { inOAuthMode, recordSettings } from "../settings";
import { carriesFunctionToken, sealedDelivery } from "./functionTokenSealing";
import type { Metrics } from "./metrics";
import { OverloadGuard } from "./overloadGuard";

/** Alarms for pruning alone come no more often than this: receipts expire in bulk, not one by one. */
const PRUNE_INTERVAL_MS = 60_000;

export interface RecordingParts {
  storage: ShardStorage;
  outbox: Outbox;
  delivery: DeliveryLoop;
  metrics: Metrics;
  /** The app the shard plans with (routing/servedApp.ts). */
  app: SlackApp;
  env: CoordinatorEnv;
}

/**
 * A workspace shard's recording: each delivery's receipt, outbox rows and alarm in ONE
 * transaction (ingest.ts), the receipts it keeps for the retry horizon, and — in OAuth mode —
 * only for installed workspaces, lifecycle events included.
 */
export class Recording {
  /** Deliveries this instance accepted (first deliveries, not duplicates). */
  accepted = 0;
  /** Turns this instance refused: over a budget (`limits`). */
  turnsRefused = 0;
  /** Refuses ingests that waited too long in front of the shard (OVERLOAD_WAIT_MS). */
  readonly overload: OverloadGuard;
  private readonly oauth: boolean;
  private readonly retentionMs: number;
  private readonly receipts: Receipts;
  private readonly stores: IngestStores;
  /** The outbox filed by generation: done rows dropped with their table (outboxFiling.ts). */
  private readonly filing: OutboxFiling;
  /** Each delivery's story, read from its receipt and its outbox rows (GET /admin/api/events…). */
  readonly stories: EventStories;

  constructor(private readonly parts: RecordingParts) {
    const { storage, outbox, env, delivery } = parts;
    this.oauth = inOAuthMode(env);
    // Recording needs only the receipt retention; without it the shard cannot record (503).
    const { receiptRetentionMs, eventPayloads, overloadWaitMs } = recordSettings(env);
    this.overload = new OverloadGuard(overloadWaitMs, parts.metrics);
    this.retentionMs = receiptRetentionMs;
    this.filing = new OutboxFiling(storage.sql, this.retentionMs);
    // Receipts are rows of their own, or carried by the first outbox row of their delivery (foldedReceipts.ts).
    const folded = new FoldedReceipts(storage.sql, this.filing, this.retentionMs);
    this.receipts = new Receipts(storage.sql, this.retentionMs, eventPayloads, folded);
    outbox.receipts.keep = (where, values) => this.receipts.keepFolded(where, values, Date.now());
    this.stores = {
      sql: storage.sql,
      receipts: this.receipts,
      outbox,
      // Its turns' ingest side: the turns part of its delivery loop (parts/turns/).
      turns: delivery.parts.turns,
      filing: this.filing,
    };
    this.stories = new EventStories(storage.sql, this.receipts, this.filing, (key) => delivery.parts.waits.store.ofRun(key));
    storage.wakeUps.register((now) => {
      const prunable = this.receipts.nextPruneAt(now);
      // A shard that never recorded has nothing to file either.
      return prunable === null ? null : Math.max(Math.min(prunable, this.filing.nextFilingAt(now)), now + PRUNE_INTERVAL_MS);
    });
  }

  /**
   * Records one delivery. The RPC reply is held by the output gate until its transaction is
   * durable, so the Worker can never answer Slack 200 for something that is not stored. `plan`: the
   * edge's, planned once (a delivery whose custom step's token is sealed here is planned again, sealed).
   */
  ingest(inbound: Inbound, plan?: Plan): IngestResult | Promise<IngestResult> {
    // Before anything is read or written: a shard past its capacity serves what it has accepted (overloadGuard.ts).
    this.overload.admit(inbound, Date.now());
    return inSpan("ingest", { event_id: inbound.dedupeKey, workspace: inbound.workspace, type: inbound.type }, () =>
      // A custom step's token is sealed before anything is stored: the transaction cannot await.
      carriesFunctionToken(inbound)
        ? sealedDelivery(inbound, this.parts.env).then((sealed) => this.admit(sealed))
        : this.admit(inbound, plan),
    );
  }

  private admit(inbound: Inbound, plan?: Plan): IngestResult | Promise<IngestResult> {
    // Lifecycle events are the store's to judge (it knows the installation's history): an
    // uninstall's app_uninstalled and tokens_revoked come in any order, and both must land.
    if (!this.oauth || isLifecycleEvent(inbound)) return this.record(inbound, plan);
    // Installed? Known without waiting in steady state; asked of the store on a cold cache,
    // which decrypts nothing and never refreshes on the ack path.
    const lookup = () => installationStub(this.parts.env, inbound.workspace).status();
    const known = installationCache.peek(inbound.workspace, Date.now(), "status", lookup);
    if (known === undefined) {
      return installationCache
        .status(inbound.workspace, Date.now(), lookup)
        .then((answer) => (answer.status === "installed" ? this.record(inbound, plan) : notInstalled(answer)));
    }
    return known.status === "installed" ? this.record(inbound, plan) : notInstalled(known);
  }

  /** Records a delivery of a workspace this shard serves: the transaction is ingest.ts. */
  private record(inbound: Inbound, plan?: Plan): IngestResult {
    const { storage, delivery, metrics } = this.parts;
    storage.migrate();
    // An ingest is an invocation: its immediate attempts count on a meter of its own (platform/invocationMeter.ts).
    delivery.invoked();
    const now = Date.now();
    metrics.registerOnce(now);
    // New rows are leased to this delivery's immediate attempt as they are written; with many
    // attempts in flight they wait for one in memory, still leased (immediateAttempts.ts).
    // Only when that line is long too are they written unleased, for the sweep.
    const lease = delivery.leaseFor(now, undefined, inbound);
    const { result, leased, interrupted, refused, dueAt } = ingestDelivery(
      this.stores,
      this.parts.app,
      inbound,
      now,
      lease,
      plan,
    );
    // Delivered rows waiting to be deleted share this turn's commit (completions.ts).
    delivery.ready?.courier.completions.flush();
    metrics.recorded(result.verdict, inbound.receivedAt, now);
    if (result.verdict !== "accepted") return result;
    this.accepted++;
    if (refused) this.refused(inbound, refused, now);
    // Each part's ingest side (src/parts/), in the same turn as the ingest so its writes share the commit:
    // a stop parks its conversation's runs, an interrupt those its ingest parked — before its own attempt
    // begins below —, a click on a durable wait's question answers the wait.
    delivery.parts.recorded(inbound, now, interrupted);
    // Armed only once the transaction has succeeded, so the alarm mirror never believes in a
    // rolled-back alarm; with no await in between, the alarm write commits with the rows.
    // The sweep is the contract: if the immediate attempt dies with this instance, the
    // alarm reclaims the rows once their lease has run out.
    // Rows left to the sweep: now (its alarm has a meter of its own), or later while delivery is paused.
    const sweepAt = delivery.ready ? now : now + PAUSED_RETRY_MS;
    storage.wakeUps.arm(leased.length === 0 ? now + this.retentionMs : (lease?.expiresAt ?? sweepAt));
    // A merge turn's quiet period: its alarm runs it (an earlier alarm finds it not due and re-arms for it).
    storage.wakeUps.arm(dueAt);
    if (lease && leased.length > 0) delivery.attempt(inbound, result, lease, leased, now);
    // Rows left to the sweep go first once attempts are free: this ingest's unleased rows among them (oldestFirst.ts).
    delivery.catchUp(now);
    return result;
  }

  /** A turn over its budget: counted in this minute's metrics and stats, one line logged. */
  private refused(inbound: Inbound, limit: TurnLimit, now: number): void {
    this.turnsRefused++;
    this.parts.metrics.turnRefused(now);
    const { scope, window, max, resetsAt } = limit;
    const fields = { shard: this.parts.storage.name, dedupeKey: inbound.dedupeKey, user: userOf(inbound), scope, window, max };
    log("info", "turn refused: over its budget", { ...fields, resetsAt: new Date(resetsAt).toISOString() });
  }

  /**
   * Told by the installation store (to every bucket of the workspace): forget what this isolate
   * cached, and when the installation is gone, park the workspace's waiting effects with why and
   * delete its assistant threads' contexts.
   */
  installationChanged(workspace: string, change: InstallationChange): number {
    const now = Date.now();
    installationCache.apply(workspace, change, now);
    if (change.status === "installed" || !this.parts.storage.migrated) return 0;
    const parked = this.parts.outbox.parked.parkWorkspace(workspace, change.reason, now, "installation");
    this.parts.delivery.parts.installationGone(workspace);
    if (parked > 0)
      log("warn", "effects parked: installation gone", {
        shard: this.parts.storage.name,
        workspace,
        parked,
        reason: change.reason,
      });
    return parked;
  }

  /**
   * The alarm's part: whole generations expire together (a table each) — receipts, and the outbox's
   * done rows, filed once a generation; if the table of before 0005 still holds more than one batch, come back soon.
   */
  prune(now: number): void {
    if (this.receipts.pruneExpired(now) > 0) this.parts.storage.wakeUps.arm(now + 1_000);
    if (this.parts.storage.migrated) this.filing.file(now);
  }

  receiptCount(): number {
    return this.receipts.count();
  }

  /** One delivery's story (null: unknown or pruned); a shard never written answers null and creates nothing. */
  eventStory(id: string): EventStory | null {
    if (!this.parts.storage.migrated) return null;
    const now = Date.now();
    const story = this.stories.story(id, now);
    // Linked to its original and its re-runs (POST /admin/api/events/{id}/rerun).
    return story && { ...story, ...rerunLinks(this.parts.storage.sql, this.receipts, id, now) };
  }

  /** Deliveries newest first, as `filter` says. */
  listEvents(filter: EventFilter): EventSummary[] {
    return this.parts.storage.migrated ? this.stories.list(filter, Date.now()) : [];
  }
}

const notInstalled = (known: Exclude<Known, { status: "installed" }>): IngestResult => ({
  verdict: "not_installed",
  reason: known.reason,
  enqueued: 0,
});
