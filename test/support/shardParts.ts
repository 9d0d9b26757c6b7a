import { env } from "cloudflare:workers";
import { type Authorize, singleWorkspace } from "../../src/auth/authorize";
import { deliverySettings } from "../../src/config";
import type { Courier } from "../../src/delivery/deliverClaimed";
import { countInto, DeliveryEvents, newCounters } from "../../src/delivery/events";
import type { CoordinatorEnv } from "../../src/env";
import { buildCourier } from "../../src/shard/courier";
import { MeteredSql } from "../../src/shard/meteredSql";
import { applyMigrations } from "../../src/shard/migrations";
import { Outbox } from "../../src/shard/outbox";
import { testApp } from "./testApp";

/**
 * The shard's own parts, built over a shard's real storage inside `runInDurableObject`, for
 * tests that drive one part (the outbox's SQL, the delivery loop) directly. Nothing is faked.
 */
export function outboxOf(state: DurableObjectState): Outbox {
  applyMigrations(state.storage);
  return new Outbox(new MeteredSql(state.storage.sql));
}

/** A delivery loop over the shard's outbox, as the Shard wires it, with its own counters. */
export function courierOf(
  state: DurableObjectState,
  overrides: Partial<Courier> = {},
  authorize: Authorize<CoordinatorEnv> = singleWorkspace,
) {
  const counters = newCounters();
  const courier = buildCourier({
    shard: "test",
    app: testApp,
    authorize,
    env: env as unknown as CoordinatorEnv,
    settings: deliverySettings(env),
    outbox: outboxOf(state),
    events: new DeliveryEvents().subscribe(countInto(counters)),
    wakeAt: () => {},
  });
  return { courier: { ...courier, ...overrides }, counters };
}
