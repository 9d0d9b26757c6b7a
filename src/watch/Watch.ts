import { log } from "../platform/log";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { WakeUps } from "../platform/wakeUps";
import type { Outbox } from "../recording/outbox";
import { newRow } from "../recording/outboxRows";
import type { DeliveryReport } from "../rpc/outcomes";
import {
  type AckTally,
  type AlertState,
  type AppRateLimited,
  type AppRateLimitedSummary,
  type HealthWindow,
  type RegisteredShard,
  type ShardLoad,
  WATCH,
} from "../rpc/watch";
import type { AlertSettings } from "../settings";
import { AckWindow } from "./ackWindow";
import { storageAlert } from "./alertTexts";
import { appRateLimitedSummary, recordAppRateLimited } from "./appRateLimited";
import { guardState, judge } from "./guard";
import { judgedWindow } from "./judgedAcks";
import { addParked, dueParked, nextParkedDueAt } from "./parkedBatches";
import { ShardRegistry } from "./shardRegistry";
import { type SpreadParts, Spreads } from "./spreads";
import { applyRun, openStreaks } from "./streaks";

export interface WatchParts {
  sql: MeteredSql;
  outbox: Outbox;
  settings: AlertSettings;
  /** The shard's alarm: the watch registers its parked batches coming due, and moves it earlier for alerts to send. */
  wakeUps: Pick<WakeUps, "arm" | "register">;
  /** The automatic spread's own (spreads.ts). */
  spread: Pick<SpreadParts, "settings" | "shardBuckets" | "keeperOf">;
}

/**
 * What the one reserved shard "watch" does besides being a shard: it sums the acks every
 * Worker instance gave Slack (the guard, GET /admin/health), keeps the failure streaks the
 * shards report, batches their parked effects, and plans the resulting alerts as `alert` rows
 * of its own outbox — delivered, retried and parked like any effect (docs/guides/operations.md "Alerts").
 */
export class Watch {
  private readonly acks: AckWindow;
  private readonly registry: ShardRegistry;
  /** The automatic spread, decided here from the shards' reports (spreads.ts). */
  readonly spreads: Spreads;

  constructor(private readonly parts: WatchParts) {
    this.acks = new AckWindow(parts.sql);
    this.registry = new ShardRegistry(parts.sql);
    this.spreads = new Spreads({ ...parts.spread, sql: parts.sql, registry: this.registry, wakeUps: parts.wakeUps });
    // Parked batches coming due.
    parts.wakeUps.register(() => nextParkedDueAt(parts.sql));
  }

  /**
   * A shard is alive, with its last minute's load (the automatic spread's figures); one past
   * STORAGE_ALERT_BYTES is alerted, at most once a day (the registry keeps when).
   */
  shardSeen(shard: string, at: number, databaseSize: number | undefined, now: number, load?: ShardLoad): void {
    const busy = this.spreads.judged(shard.slice(0, shard.lastIndexOf("/")), load, now);
    this.registry.seen(shard, at, databaseSize, busy);
    const limit = this.parts.settings.storageAlertBytes;
    if (databaseSize !== undefined && databaseSize >= limit && this.registry.storageAlertDue(shard, now))
      this.send([storageAlert(shard, databaseSize, limit)], now);
  }

  shards(since: number): RegisteredShard[] {
    return this.registry.activeSince(since);
  }

  countAcks(tally: AckTally, now: number): void {
    this.acks.add(tally, now);
    const alert = judge(this.parts.sql, judgedWindow(this.acks.rows(now), now), this.parts.settings, now);
    if (alert) this.send([alert], now);
  }

  reportDeliveries(report: DeliveryReport, now: number): void {
    const alerts = report.runs.flatMap((run) => applyRun(this.parts.sql, run, now));
    if (report.parked) alerts.push(...addParked(this.parts.sql, report.shard, report.parked, now));
    this.send(alerts, now);
    const due = nextParkedDueAt(this.parts.sql);
    if (due !== null) this.parts.wakeUps.arm(due);
  }

  health(now: number): HealthWindow & { app_rate_limited: AppRateLimitedSummary } {
    return { ...judgedWindow(this.acks.rows(now), now), app_rate_limited: appRateLimitedSummary(this.parts.sql, now) };
  }

  /** Slack stopped sending a workspace's events for a minute: counted and alerted once. */
  appRateLimited(notice: AppRateLimited, now: number): void {
    const alert = recordAppRateLimited(this.parts.sql, notice, now);
    if (alert) this.send([alert], now);
  }

  /** What alerts are about now: the destinations failing, and whether the guard is alerting. */
  alertState(now: number): AlertState {
    return {
      alertsSent: this.parts.settings.webhookUrl !== undefined,
      guard: guardState(this.parts.sql),
      failing: openStreaks(this.parts.sql, now),
    };
  }

  /** The alarm's part: parked batches whose minute is up. */
  due(now: number): void {
    this.send(dueParked(this.parts.sql, now), now);
  }

  /** Every alert is logged; with ALERT_WEBHOOK_URL set it is also enqueued, and the alarm delivers it. */
  private send(alerts: string[], now: number): void {
    if (alerts.length === 0) return;
    for (const text of alerts) log("warn", "alert", { text, sent: this.parts.settings.webhookUrl !== undefined });
    if (!this.parts.settings.webhookUrl) return;
    this.parts.outbox.enqueue(
      alerts.map((text) => newRow(`alert:${now}:${crypto.randomUUID()}`, WATCH, { type: "alert", text })),
      now,
      null,
    );
    this.parts.wakeUps.arm(now);
  }
}
