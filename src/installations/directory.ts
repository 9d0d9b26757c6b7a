import type { MeteredSql } from "../shard/meteredSql";
import type { InstallationSummary } from "./api";

const LIST_LIMIT_MAX = 1000;

/**
 * The directory's table: one summary per installation for the operations list. Written on
 * installs and uninstalls only, never per event. (Its redeemed OAuth states: redeemedStates.ts.)
 */
export class Directory {
  constructor(private readonly sql: MeteredSql) {}

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
