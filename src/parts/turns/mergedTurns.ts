import type { PlannedEffect } from "../../app/contract";
import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import type { MeteredSql } from "../../platform/sql/meteredSql";
import { PENDING } from "../../recording/rowStatus";
import { HELD_TURN_AT } from "../../recording/turnMarks";

/** At most this many messages in one merged burst: the next one starts a turn of its own. */
export const BURST_MESSAGES_MAX = 20;
/**
 * A merge turn's payload takes in no message that would make it longer than this (bytes): well
 * under the 2 MB Cloudflare allows a value (platform/sql/sqlLimits.ts); past it a new turn starts.
 */
export const BURST_PAYLOAD_MAX = 256 * 1024;

/**
 * The burst a merge turn of `inbound` takes in (migrations/0023_merged_turns.sql): one user's
 * messages in one conversation to one listener — never another user's. Undefined for a turn of
 * another policy, and for a message no user is known for.
 */
export function burstOf(inbound: Inbound, planned: PlannedEffect): string | undefined {
  if (planned.turn?.policy !== "merge") return undefined;
  const user = userOf(inbound);
  return user === undefined ? undefined : JSON.stringify([planned.turn.conversation, user, planned.name]);
}

/**
 * Takes `inbound`'s message into the open merge turn of `burst`, if there is one that has not
 * started — no attempt, never claimed, so no checkpoint either — and has room (BURST_MESSAGES_MAX,
 * BURST_PAYLOAD_MAX; a full one is closed): its event is appended to the row's `merged`, and it is due at `dueAt`
 * (the quiet period counts from the last message), unless it is held behind another turn (it
 * goes when that one ends). Runs inside its ingest's transaction, with the message's receipt: a
 * retry of the message is a duplicate, never appended twice. Returns whether it was taken in.
 */
export function joinBurst(sql: MeteredSql, burst: string, inbound: Inbound, dueAt: number): boolean {
  const event = isObject(inbound.payload.event) ? inbound.payload.event : undefined;
  if (event === undefined) return false;
  // A burst has at most one open row: a new one is written only when none is open, or it is full and closed.
  const [open] = sql.all<{ key: string; messages: number; bytes: number }>(
    `SELECT idempotency_key AS key, coalesce(json_array_length(payload, '$.merged'), 0) + 1 AS messages,
        length(CAST(payload AS BLOB)) AS bytes
      FROM outbox INDEXED BY outbox_open_merges
      WHERE merge_open = ? AND ${PENDING} AND attempts = 0 AND claimed_at IS NULL AND claim_token IS NULL
      LIMIT 1`,
    burst,
  );
  if (open === undefined) return false;
  const json = JSON.stringify(event);
  if (open.messages >= BURST_MESSAGES_MAX || open.bytes + new TextEncoder().encode(json).length + 1 > BURST_PAYLOAD_MAX) {
    // Full: closed, so the turn this message starts is the burst's open row from now on.
    sql.all("UPDATE outbox SET merge_open = NULL WHERE idempotency_key = ?", open.key);
    return false;
  }
  // No await since the read: the row is still unclaimed, and the append commits with the receipt.
  sql.all(
    `UPDATE outbox SET payload = json_set(payload, '$.merged', json_insert(coalesce(payload -> '$.merged', '[]'), '$[#]', json(?1))),
        next_attempt_at = CASE WHEN next_attempt_at = ${HELD_TURN_AT} THEN next_attempt_at ELSE max(next_attempt_at, ?2) END
      WHERE idempotency_key = ?3`,
    json,
    dueAt,
    open.key,
  );
  return true;
}
