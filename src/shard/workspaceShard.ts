import type { SlackApp } from "../app/contract";
import type { Authorize } from "../auth/authorize";
import { DeliveryLoop } from "../delivery/deliveryLoop";
import { PaceKeeping } from "../delivery/paceKeeping";
import { ThreadContexts } from "../parts/threadContexts";
import { Outbox } from "../recording/outbox";
import type { ShardStorage } from "../recording/shardStorage";
import type { CoordinatorEnv } from "../rpc/env";
import { LayoutKeeping } from "./layoutKeeping";
import { Metrics } from "./metrics";
import { Operations } from "./operations";
import { Recording } from "./recording";

/**
 * The role of a workspace's shard ("{workspace}/{bucket}"; see routing/): it records the
 * workspace's deliveries of its slice and delivers their effects, keeps some of the workspace's
 * rate keys (pace keeping), and — bucket 0 — its bucket layouts. Each part owns its tables and its wake source.
 */
export class WorkspaceShard {
  readonly kind = "a workspace shard";
  readonly delivery: DeliveryLoop;
  readonly metrics: Metrics;
  readonly recording: Recording;
  readonly operations: Operations;
  readonly pace = new PaceKeeping();
  readonly layouts: LayoutKeeping;
  /** Its part of thread contexts (parts/threadContexts/): only this role keeps them. */
  readonly threadContexts: ThreadContexts;

  constructor(
    private readonly storage: ShardStorage,
    app: SlackApp,
    authorize: Authorize<CoordinatorEnv>,
    env: CoordinatorEnv,
  ) {
    const outbox = new Outbox(storage.sql);
    const shard = storage.name;
    const { wakeUps } = storage;
    this.threadContexts = new ThreadContexts({ shard, outbox, wakeAt: (at) => wakeUps.arm(at) }, env);
    const roleParts = { threadContexts: this.threadContexts };
    const pace = this.pace.local;
    this.delivery = new DeliveryLoop({ shard, role: "workspace", app, authorize, env, outbox, wakeUps, pace, roleParts });
    this.metrics = new Metrics(storage, outbox, env.SHARD);
    this.delivery.events.subscribe(this.metrics.onDelivery);
    this.recording = new Recording({
      storage,
      outbox,
      delivery: this.delivery,
      metrics: this.metrics,
      app,
      env,
    });
    this.operations = new Operations(storage, outbox, this.delivery.counters, this.recording);
    this.layouts = new LayoutKeeping(storage, shard);
  }

  alarm(): Promise<void> {
    return this.storage.alarm(async (now) => {
      this.metrics.due(now);
      await this.delivery.sweep(now);
      this.recording.prune(now);
      this.delivery.parts.prune(now);
    }, this.delivery.ready !== null);
  }
}
