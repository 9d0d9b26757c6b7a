import type { MeteredSql } from "../platform/sql/meteredSql";
import type { StateCheck } from "../rpc/installations";
import type { SignedState } from "./signedState";

/** Expired rows removed per redemption, at most: each call's cost is bounded, yet the tables shrink faster than they grow. */
const PRUNE_LIMIT = 16;

/**
 * The directory's record of OAuth states already used (`redeemed_state`): one row per redeemed
 * state, never per click, kept until the state expires. A state is spent by its first use,
 * successful or not: a later use finds it redeemed ("unknown"). An unsigned state is one issued
 * before states were signed (`oauth_state`): consumed by its first use, as it always was.
 */
export function redeemState(sql: MeteredSql, state: SignedState | string, now: number): StateCheck {
  prune(sql, now);
  if (typeof state === "string") {
    const [row] = sql.all<{ expires_at: number }>("DELETE FROM oauth_state WHERE state = ? RETURNING expires_at", state);
    if (!row) return "unknown";
    return row.expires_at > now ? "valid" : "expired";
  }
  // The directory's clock decides expiry, and a row goes only once that clock has passed it: no replay outlives its row.
  if (state.expiresAt <= now) return "expired";
  const inserted = sql.count(
    "INSERT INTO redeemed_state (nonce, expires_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING RETURNING 1",
    state.nonce,
    state.expiresAt,
  );
  return inserted === 1 ? "valid" : "unknown";
}

function prune(sql: MeteredSql, now: number): void {
  for (const [table, key] of [
    ["redeemed_state", "nonce"],
    ["oauth_state", "state"],
  ] as const)
    sql.count(
      `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE expires_at <= ? ORDER BY expires_at LIMIT ?) RETURNING 1`,
      now,
      PRUNE_LIMIT,
    );
}
