import { runInDurableObject } from "cloudflare:test";
import type { Effect } from "../../src/app/contract/effects";
import { newRow } from "../../src/recording/outboxRows";
import { STATUS_OF, STOPPED } from "../../src/recording/rowStatus";
import type { Shard } from "../worker";
import { outboxOf } from "./shardIn";

type ShardStub = DurableObjectStub<Shard>;

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
export function seedEffects(
  stub: ShardStub,
  workspace: string,
  effects: Array<{ name: string; effect: Effect }>,
  dedupeKey = "Ev-seeded",
) {
  return seedRows(
    stub,
    effects.map(({ name, effect }) => newRow(`${dedupeKey}:${name}`, workspace, effect)),
  );
}

/** Seeds rows as stored, payload text included (e.g. one that no longer parses). Returns their keys. */
export function seedRows(
  stub: ShardStub,
  rows: Array<{ key: string; workspace: string; effectType: string; payload: string; rateKey: string | null }>,
): Promise<string[]> {
  return runInDurableObject(stub, async (_, state) => {
    const now = Date.now();
    outboxOf(state).enqueue(rows, now, { token: "expired-seed-lease", expiresAt: now });
    await state.storage.setAlarm(now);
    return rows.map((row) => row.key);
  });
}

export function outboxRows(stub: ShardStub): Promise<OutboxRow[]> {
  return runInDurableObject(stub, (_, state) =>
    state.storage.sql
      .exec<OutboxRow>(
        // The status as the code reads it: a stopped run is stored `parked` with `stopped_at` (src/recording/rowStatus.ts).
        `SELECT idempotency_key, ${STATUS_OF("outbox")} AS status, attempts, next_attempt_at, claim_token, claim_expires_at, last_error
          FROM outbox WHERE done_at IS NULL ORDER BY idempotency_key`, // live rows: a done row is kept with its story (0026)
      )
      .toArray(),
  );
}

/**
 * The runs kept as stopped (the stop button, an interrupt): an outcome, apart from the parked ones
 * (never in `listParked()`), as the outbox holds them, by key.
 */
export function stoppedIn(state: DurableObjectState) {
  return state.storage.sql
    .exec<{ idempotency_key: string; last_error: string; attempts: number }>(
      `SELECT idempotency_key, last_error, attempts FROM outbox WHERE ${STOPPED} ORDER BY idempotency_key`,
    )
    .toArray();
}

export function postMessage(channel: string, text = "hello"): Effect {
  return { type: "slack.api", method: "chat.postMessage", body: { channel, text } };
}
