import type { SlackApp } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import { DeliveryLoop } from "../delivery/deliveryLoop";
import { describeError, log } from "../platform/log";
import { Outbox } from "../recording/outbox";
import { OutboxFiling } from "../recording/outboxFiling";
import type { ShardStorage } from "../recording/shardStorage";
import type { CoordinatorEnv } from "../rpc/env";
import { layoutKeeperStub } from "../rpc/shardStub";
import { alertSettings, spreadSettings } from "../settings";
import { Watch } from "../watch/Watch";
import { Metrics } from "./metrics";
import { Operations } from "./operations";

/** How long the watch keeps a delivered alert's row (its generation): a day. */
const ALERTS_KEPT_MS = 86_400_000;

/**
 * The role of the one reserved shard "watch": alerts, the guard and the registry of shards
 * (src/watch/), planned as `alert` rows of its own outbox and delivered by its own loop.
 * It records no deliveries, keeps no pace and no layouts, and registers with nobody.
 */
export class WatchShard {
  readonly kind = "the watch";
  readonly delivery: DeliveryLoop;
  readonly metrics: Metrics;
  readonly operations: Operations;
  private readonly outbox: Outbox;
  /** Its delivered alerts are kept, done, one to two days, and dropped whole (outboxFiling.ts). */
  private readonly filing: OutboxFiling;
  /** Made at first use, with the schema. */
  private part?: Watch;

  constructor(
    private readonly storage: ShardStorage,
    app: SlackApp,
    authorize: Authorize<CoordinatorEnv>,
    private readonly env: CoordinatorEnv,
  ) {
    const outbox = new Outbox(storage.sql);
    this.outbox = outbox;
    this.filing = new OutboxFiling(storage.sql, ALERTS_KEPT_MS);
    const { wakeUps } = storage;
    this.delivery = new DeliveryLoop({ shard: storage.name, role: "watch", app, authorize, env, outbox, wakeUps });
    this.metrics = new Metrics(storage, outbox);
    this.delivery.events.subscribe(this.metrics.onDelivery);
    this.operations = new Operations(storage, outbox, this.delivery.counters);
  }

  /** The watch's part (src/watch/Watch.ts), its schema applied first. */
  watch(): Watch {
    this.storage.migrate();
    if (!this.part) {
      const settings = alertSettings(this.env);
      const spread = spreadSettings(this.env);
      for (const [part, problems] of [
        ["alert", settings.problems],
        ["spread", spread.problems],
      ] as const)
        for (const problem of problems)
          log("error", `${part} setting invalid; its default is used`, { setting: problem.setting, error: problem.message });
      const { sql, wakeUps } = this.storage;
      const keeperOf = (workspace: string) => layoutKeeperStub(this.env.SHARD, workspace);
      const { shardBuckets } = spread;
      this.part = new Watch({
        sql,
        outbox: this.outbox,
        settings,
        wakeUps,
        spread: { settings: spread, shardBuckets, keeperOf },
      });
    }
    return this.part;
  }

  alarm(): Promise<void> {
    return this.storage.alarm(async (now) => {
      this.metrics.due(now);
      // Whatever goes wrong with the watch's part, the sweep still delivers the alerts.
      try {
        this.watch().due(now);
      } catch (error) {
        log("error", "watch: parked batches not alerted", { error: describeError(error) });
      }
      // Likewise the automatic spread: its checks that fail are booked again (watch/spreads.ts).
      try {
        await this.watch().spreads.due(now);
      } catch (error) {
        log("error", "watch: spread not checked", { error: describeError(error) });
      }
      await this.delivery.sweep(now);
      if (this.storage.migrated) this.filing.file(now);
    }, this.delivery.ready !== null);
  }
}
