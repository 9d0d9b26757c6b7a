import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { App } from "../../src/app/App";
import { outboxKeyOf } from "../../src/app/contract/outboxKey";
import type { Inbound } from "../../src/inbound/types";
import { RetryableError } from "../../src/platform/errors";
import { newRow } from "../../src/recording/outboxRows";
import { servedApp } from "../../src/routing/servedApp";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { relayMode } from "../../src/settings";
import { sealedDelivery } from "../../src/shard/functionTokenSealing";
import { controlClock } from "./clock";
import { shardStub } from "./coordinator";
import { eventDelivery } from "./inboundOf";
import { outboxOf, shardIn } from "./shardIn";
import { HANDLER_MAX_ATTEMPTS } from "./testBindings";

/** The token SlackSimulator's `function_executed` carries. */
export const FUNCTION_TOKEN = "xwfp-0000-fake";

/** Every row of every table a shard's storage holds, as one text. */
export function storedTextOf(state: DurableObjectState): string {
  const tables = state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'")
    .toArray();
  return JSON.stringify(tables.map(({ name }) => [name, state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()]));
}

/** Every row of every table the workspace's shard stores, as one text. */
export function storedText(team: string): Promise<string> {
  return runInDurableObject(shardStub(team), (_, state) => storedTextOf(state));
}

/** Slack's `function_executed` for `team`, as the edge hands it to the shard (in relay mode with the request as sent). */
function functionExecuted(team: string): Inbound {
  const event = {
    type: "function_executed",
    function: { callback_id: "broken" },
    inputs: {},
    function_execution_id: "Fx9",
    bot_access_token: FUNCTION_TOKEN,
  };
  const inbound = eventDelivery(team, event, `Ev-step-${team}`);
  const relayed = relayMode(env as unknown as CoordinatorEnv) !== null;
  return relayed ? { ...inbound, raw: { body: JSON.stringify(inbound.payload), contentType: "application/json" } } : inbound;
}

/**
 * A custom step whose run always throws, served with an `app.error` (the test app has none), in
 * the shard's own storage: recorded as ingest records it (its token sealed by the shard's
 * sealing), swept until its run is parked and its `app.error` run (failing once) delivered.
 * Returns what every table held after each sweep, the row keys seen and app.error's attempts.
 */
export async function parkedStepWithAppError(team: string): Promise<{ snapshots: string[]; keys: Set<string>; errors: number }> {
  const clock = controlClock();
  let errors = 0;
  const app = new App()
    .function("broken", async () => {
      throw new Error("the step is broken");
    })
    .error(async () => {
      // Its first attempt fails: a sweep finds the app.error row pending, beside the parked run.
      if (++errors === 1) throw new RetryableError("app.error fails once");
    });
  const coordinatorEnv = env as unknown as CoordinatorEnv;
  return runInDurableObject(shardStub(team), async (_, state) => {
    const served = servedApp(app, coordinatorEnv);
    const inbound = await sealedDelivery(functionExecuted(team), coordinatorEnv);
    const plan = served.plan(inbound);
    if ("ignore" in plan) throw new Error(`not planned: ${plan.ignore}`);
    outboxOf(state).enqueue(
      plan.effects.map((planned) => newRow(outboxKeyOf(inbound, planned), team, planned.effect)),
      Date.now(),
      null,
    );
    const { loop } = shardIn(state, { app: served });
    const snapshots: string[] = [];
    const keys = new Set<string>();
    const read = () => {
      snapshots.push(storedTextOf(state));
      for (const { key } of state.storage.sql.exec<{ key: string }>("SELECT idempotency_key AS key FROM outbox").toArray())
        keys.add(key);
    };
    read();
    for (let i = 0; i < 2 * HANDLER_MAX_ATTEMPTS + 4; i++) {
      clock.advance(60_000);
      await loop.sweep(Date.now());
      read();
    }
    return { snapshots, keys, errors };
  });
}
