import { env } from "cloudflare:workers";
import type { SlackApp } from "../../src/app/contract/slackApp";
import { type Authorize, singleWorkspace } from "../../src/auth/authorize";
import type { Courier } from "../../src/delivery/courier";
import { DeliveryLoop } from "../../src/delivery/deliveryLoop";
import { PaceKeeping } from "../../src/delivery/paceKeeping";
import type { Inbound } from "../../src/inbound/types";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import { ShardStorage } from "../../src/recording/shardStorage";
import { servedApp } from "../../src/routing/servedApp";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { WorkspaceShard } from "../../src/shard/workspaceShard";
import { testApp } from "./testApp";

/**
 * The one shard builder of the tests: a workspace shard's parts over a shard's real storage
 * (inside `runInDurableObject`), wired as the Shard wires them. Nothing but Slack is faked.
 * What differs between tests is an option.
 */
export interface ShardOptions {
  /** The app it serves: the engine tests' app (test/worker.ts) unless given. */
  app?: SlackApp;
  /** Settings on top of the test env (settings are parsed per env object, so these are parsed anew). */
  settings?: Record<string, string>;
  /** Whose token each row's effect is performed with: the test env's bot token unless given. */
  authorize?: Authorize<CoordinatorEnv>;
  /** The shard's name (the Durable Object's unless given): `{team}/0` keeps its workspace's pace itself. */
  name?: string;
}

const envWith = (settings: Record<string, string> = {}) => ({ ...(env as unknown as CoordinatorEnv), ...settings });

/** The shard's outbox over its storage (migrated), for a test that drives the outbox's SQL itself. */
export function outboxOf(state: DurableObjectState): Outbox {
  applyMigrations(state.storage);
  return new Outbox(new MeteredSql(state.storage.sql, state.storage));
}

/**
 * The shard's delivery loop over its outbox, wired as the Shard wires it (delivery/deliveryLoop.ts:
 * leases, checkpoints, pacing, reports to the watch, counters and logging included), with its own
 * counters. Its wake-ups go nowhere, so only the test drives it.
 */
export function shardIn(state: DurableObjectState, options: ShardOptions = {}): { outbox: Outbox; loop: DeliveryLoop } {
  const outbox = outboxOf(state);
  const loop = new DeliveryLoop({
    shard: options.name ?? state.id.name ?? state.id.toString(),
    role: "workspace",
    app: options.app ?? testApp,
    authorize: options.authorize ?? singleWorkspace,
    env: envWith(options.settings),
    outbox,
    wakeUps: { arm() {}, register() {} },
    pace: new PaceKeeping().local,
  });
  return { outbox, loop };
}

/** The courier of that loop, with `overrides` on top, and its counters. */
export function courierOf(state: DurableObjectState, overrides: Partial<Courier> = {}, options: ShardOptions = {}) {
  const { loop } = shardIn(state, options);
  if (!loop.ready) throw new Error("delivery is paused: the test env has an invalid delivery setting");
  return { courier: { ...loop.ready.courier, ...overrides }, counters: loop.counters };
}

/**
 * A workspace shard's whole role, serving `app` as the edge and the Shard serve it (servedApp):
 * recording, the stop button's part, delivery with its immediate attempts, thread contexts, metrics.
 * Its wake-ups are its storage's alarm, as the Shard's are.
 */
export async function workspaceShardIn(state: DurableObjectState, options: ShardOptions = {}): Promise<WorkspaceShard> {
  const storage = new ShardStorage(state.storage, options.name ?? state.id.name ?? "test-shard");
  await storage.load();
  storage.migrate();
  const shardEnv = envWith(options.settings);
  const app = servedApp(options.app ?? testApp, shardEnv);
  return new WorkspaceShard(storage, app, options.authorize ?? singleWorkspace, shardEnv);
}

/** `app`'s plan of `inbound`, recorded in `outbox` as ingest does; leased rows are the caller's attempt. */
export function recordPlanned(
  outbox: Outbox,
  app: SlackApp,
  inbound: Inbound,
  lease: { token: string; expiresAt: number } | null = null,
) {
  const plan = app.plan(inbound);
  if (!("effects" in plan)) throw new Error("not planned");
  const rows = plan.effects.map((planned) => newRow(`${inbound.dedupeKey}:${planned.name}`, inbound.workspace, planned.effect));
  return outbox.enqueue(rows, Date.now(), lease);
}
