import { env } from "cloudflare:workers";
import type { SlackApp } from "../../src/app/contract/types";
import { singleWorkspace } from "../../src/auth/authorize";
import { DeliveryLoop } from "../../src/delivery/deliveryLoop";
import { PaceKeeping } from "../../src/delivery/paceKeeping";
import type { Inbound } from "../../src/inbound/types";
import type { Outbox } from "../../src/recording/outbox";
import { newRow } from "../../src/recording/outboxRows";
import type { CoordinatorEnv } from "../../src/rpc/env";
import { outboxOf } from "./shardParts";

/** An app_mention by U0ASKER in `channel` (its ts `ts`), as the shard of `team` records it. */
export function mentionIn(team: string, channel: string, ts: string, dedupeKey: string, text = "question"): Inbound {
  const event = { type: "app_mention", user: "U0ASKER", team, channel, ts, text };
  return {
    kind: "event",
    dedupeKey,
    workspace: team,
    teamId: team,
    isEnterpriseInstall: false,
    type: "app_mention",
    payload: { event },
  };
}

/**
 * A fresh shard's real delivery loop for `app` (outbox, leases, checkpoints, pacing — as the Shard
 * wires it) with settings of its own on top of the test env; its wake-ups go nowhere, so only the
 * test drives it.
 */
export function streamShardLoop(state: DurableObjectState, team: string, app: SlackApp, vars: Record<string, string> = {}) {
  const outbox = outboxOf(state);
  const loop = new DeliveryLoop({
    shard: `${team}/0`,
    role: "workspace",
    app,
    authorize: singleWorkspace,
    env: { ...(env as unknown as CoordinatorEnv), ...vars },
    outbox,
    wakeUps: { arm() {}, register() {} },
    pace: new PaceKeeping().local,
  });
  return { outbox, loop };
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
