import type { MeteredSql } from "../shard/meteredSql";
import type { InstallationSummary, StateCheck } from "./api";

/** An OAuth state lives this long (as in Bolt): long enough to read Slack's consent screen. */
export const STATE_TTL_MS = 10 * 60_000;
const LIST_LIMIT_MAX = 1000;

/**
 * The directory's tables: OAuth states in flight (single use, ten minutes) and one summary per
 * installation for the operations list. Written on installs and uninstalls only, never per event.
 */
export class Directory {
  constructor(private readonly sql: MeteredSql) {}

  openState(now: number): string {
    // Expired states go as new ones come: the table holds at most ten minutes of install clicks.
    this.sql.count("DELETE FROM oauth_state WHERE expires_at <= ? RETURNING 1", now);
    const state = crypto.randomUUID();
    this.sql.count("INSERT INTO oauth_state (state, expires_at) VALUES (?, ?) RETURNING 1", state, now + STATE_TTL_MS);
    return state;
  }

  /** Consumed by its first use, successful or not: a second use finds nothing. */
  consumeState(state: string, now: number): StateCheck {
    const [row] = this.sql.all<{ expires_at: number }>("DELETE FROM oauth_state WHERE state = ? RETURNING expires_at", state);
    if (!row) return "unknown";
    return row.expires_at > now ? "valid" : "expired";
  }

  record(summary: InstallationSummary): void {
    this.sql.count(
      "INSERT INTO directory (id, summary) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET summary = ?2 RETURNING 1",
      summary.id,
      JSON.stringify(summary),
    );
  }

  forget(id: string): void {
    this.sql.count("DELETE FROM directory WHERE id = ? RETURNING 1", id);
  }

  /** Installations in id order, a page at a time: pass the returned cursor for the next page. */
  list(cursor: string | undefined, limit: number): { installations: InstallationSummary[]; cursor: string | null } {
    const pageSize = Math.min(Math.max(Math.trunc(limit) || 100, 1), LIST_LIMIT_MAX);
    const rows = this.sql.all<{ id: string; summary: string }>(
      "SELECT id, summary FROM directory WHERE id > ? ORDER BY id LIMIT ?",
      cursor ?? "",
      pageSize + 1,
    );
    const page = rows.slice(0, pageSize);
    return {
      installations: page.map((row) => JSON.parse(row.summary) as InstallationSummary),
      cursor: rows.length > pageSize ? (page.at(-1)?.id ?? null) : null,
    };
  }
}
