import { env } from "cloudflare:workers";
import type { SlackApp } from "../../src/app/contract/types";
import { type Authorize, singleWorkspace } from "../../src/auth/authorize";
import type { Courier } from "../../src/delivery/deliverClaimed";
import { DeliveryLoop } from "../../src/delivery/deliveryLoop";
import { PaceKeeping } from "../../src/delivery/paceKeeping";
import { MeteredSql } from "../../src/platform/sql/meteredSql";
import { applyMigrations } from "../../src/platform/sql/migrations";
import { Outbox } from "../../src/recording/outbox";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { testApp } from "./testApp";

/**
 * The shard's own parts, built over a shard's real storage inside `runInDurableObject`, for
 * tests that drive one part (the outbox's SQL, the delivery loop) directly. Nothing is faked.
 */
export function outboxOf(state: DurableObjectState): Outbox {
  applyMigrations(state.storage);
  return new Outbox(new MeteredSql(state.storage.sql, state.storage));
}

/**
 * The shard's delivery loop over its outbox, wired as the Shard wires it (delivery/deliveryLoop.ts:
 * pacing, reports to the watch, counters and logging included), with its own counters. Its wake-ups
 * go nowhere, so only the test drives it.
 */
export function deliveryLoopOf(
  state: DurableObjectState,
  authorize: Authorize<CoordinatorEnv> = singleWorkspace,
  app: SlackApp = testApp,
) {
  return new DeliveryLoop({
    shard: state.id.name ?? state.id.toString(),
    role: "workspace",
    app,
    authorize,
    env: env as unknown as CoordinatorEnv,
    outbox: outboxOf(state),
    wakeUps: { arm() {}, register() {} },
    pace: new PaceKeeping().local,
  });
}

/** The courier of that loop, with `overrides` on top, and its counters. */
export function courierOf(
  state: DurableObjectState,
  overrides: Partial<Courier> = {},
  authorize: Authorize<CoordinatorEnv> = singleWorkspace,
) {
  const loop = deliveryLoopOf(state, authorize);
  if (!loop.ready) throw new Error("delivery is paused: the test env has an invalid delivery setting");
  return { courier: { ...loop.ready.courier, ...overrides }, counters: loop.counters };
}
