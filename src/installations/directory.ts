import type { Schema } from "../platform/sql/schema";
import type { CoordinatorEnv } from "../rpc/env";
import type { DirectoryApi, InstallationSummary } from "../rpc/installations";
import { redeemState } from "./redeemedStates";
import { issueState, readState } from "./signedState";
import { storeSettings } from "./storeSettings";

const LIST_LIMIT_MAX = 1000;

/**
 * The directory's role: OAuth states (signed; redeemed ones kept until they expire,
 * redeemedStates.ts) and its table, one summary per installation for the operations list —
 * written on installs and uninstalls only, never per event.
 */
export class Directory implements DirectoryApi {
  readonly kind = "the directory";

  constructor(
    private readonly schema: Schema,
    private readonly env: CoordinatorEnv,
  ) {}

  openState(): Promise<string> {
    return issueState(storeSettings(this.env).clientSecret, Date.now());
  }

  async consumeState(state: string) {
    const signed = await readState(storeSettings(this.env).clientSecret, state);
    if (!signed && !this.schema.migrated) return "unknown";
    this.schema.migrate();
    return redeemState(this.schema.sql, signed ?? state, Date.now());
  }

  recordSummary(summary: InstallationSummary): void {
    this.schema.migrate();
    this.schema.sql.count(
      "INSERT INTO directory (id, summary) VALUES (?1, ?2) ON CONFLICT (id) DO UPDATE SET summary = ?2 RETURNING 1",
      summary.id,
      JSON.stringify(summary),
    );
  }

  forgetSummary(id: string): void {
    if (this.schema.migrated) this.schema.sql.count("DELETE FROM directory WHERE id = ? RETURNING 1", id);
  }

  /** Installations in id order, a page at a time: pass the returned cursor for the next page. */
  list(cursor?: string, limit = 100): { installations: InstallationSummary[]; cursor: string | null } {
    if (!this.schema.migrated) return { installations: [], cursor: null };
    const pageSize = Math.min(Math.max(Math.trunc(limit) || 100, 1), LIST_LIMIT_MAX);
    const rows = this.schema.sql.all<{ id: string; summary: string }>(
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
