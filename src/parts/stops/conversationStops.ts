import type { MeteredSql } from "../../platform/sql/meteredSql";

/** A stop is remembered this long: a run waiting longer than that for a retry answers (MAX_ATTEMPTS' backoffs end well before). */
export const STOP_RETENTION_MS = 7 * 24 * 3_600_000;
/** The alarm prunes stops at most this often. */
const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * All SQL touching `conversation_stops` (migrations/0018_conversation_stops.sql): when each user
 * last stopped each conversation, so a run recorded before that stop and begun after it — one no
 * index finds when the stop comes — is stopped as it begins (runStops.ts).
 */
export class ConversationStops {
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly sql: MeteredSql) {}

  /** `user` stopped `conversation` at `at` (one row written; a later stop replaces it). */
  record(conversation: string, user: string, at: number): void {
    this.sql.all(
      `INSERT INTO conversation_stops (conversation, user, stopped_at) VALUES (?1, ?2, ?3)
        ON CONFLICT (conversation, user) DO UPDATE SET stopped_at = max(stopped_at, excluded.stopped_at)`,
      conversation,
      user,
      at,
    );
  }

  /** When `user` last stopped `conversation`, or null (one primary-key read). */
  stoppedAt(conversation: string, user: string): number | null {
    const [row] = this.sql.all<{ at: number }>(
      "SELECT stopped_at AS at FROM conversation_stops WHERE conversation = ? AND user = ?",
      conversation,
      user,
    );
    return row?.at ?? null;
  }

  /** The alarm's part: stops older than STOP_RETENTION_MS go, once an hour at most (a small table: one row per stopping user and thread). */
  prune(now: number): void {
    if (now - this.prunedAt < PRUNE_INTERVAL_MS) return;
    this.prunedAt = now;
    this.sql.all("DELETE FROM conversation_stops WHERE stopped_at < ?", now - STOP_RETENTION_MS);
  }
}
