import { runInDurableObject } from "cloudflare:test";
import type { Effect } from "../../src/app/types";
import type { Inbound } from "../../src/inbound/types";
import type { Shard } from "../../src/shard/Shard";

export type OutboxRow = {
  idempotency_key: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  claim_token: string | null;
  claim_expires_at: number | null;
  last_error: string | null;
};

/**
 * Puts effects in a shard's outbox as ingest would, but with their first lease already
 * expired, so the next sweep claims them (no immediate attempt runs). Returns their keys.
 */
export function seedEffects(stub: DurableObjectStub<Shard>, workspace: string, effects: Array<{ name: string; effect: Effect }>, dedupeKey = "Ev-seeded"): Promise<string[]> {
  const inbound: Inbound = { kind: "event", dedupeKey, workspace, teamId: workspace, isEnterpriseInstall: false, type: "app_mention", payload: {} };
  return runInDurableObject(stub, async (instance: Shard, state) => {
    const now = Date.now();
    instance.outbox.enqueue(inbound, effects, now, { token: "expired-seed-lease", expiresAt: now });
    await state.storage.setAlarm(now);
    return effects.map((e) => `${dedupeKey}:${e.name}`);
  });
}

export function outboxRows(stub: DurableObjectStub<Shard>): Promise<OutboxRow[]> {
  return runInDurableObject(stub, (_: Shard, state) => state.storage.sql.exec<OutboxRow>(
    "SELECT idempotency_key, status, attempts, next_attempt_at, claim_token, claim_expires_at, last_error FROM outbox ORDER BY idempotency_key",
  ).toArray());
}

export function postMessage(channel: string, text = "hello"): Effect {
  return { type: "slack.api", method: "chat.postMessage", body: { channel, text } };
}
