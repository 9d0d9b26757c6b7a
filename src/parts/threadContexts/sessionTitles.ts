import type { ContextSave, SessionTitleStore } from "../../app/contract";
import type { Conversation } from "../../inbound/types";
import type { MeteredSql } from "../../platform/sql/meteredSql";
import { oldestSavedAt, pruneSavedBefore } from "./keptByAge";

type Thread = Pick<Conversation, "team" | "channel" | "threadTs">;

/**
 * All SQL touching `session_titles`: the title a user chose for each agent session, one row per
 * thread, the latest event winning, pruned by age, deleted with its workspace's installation.
 */
export class SessionTitles implements SessionTitleStore {
  constructor(private readonly sql: MeteredSql) {}

  userTitle({ team, channel, threadTs }: Thread): string | undefined {
    const [row] = this.sql.all<{ title: string }>(
      "SELECT title FROM session_titles WHERE team = ? AND channel = ? AND thread_ts = ?",
      team,
      channel,
      threadTs,
    );
    return row?.title;
  }

  /** As a thread's context: a rename at or after the kept one's event replaces it (a retry keeps it again); an older one changes nothing. */
  keepUserTitle({ team, channel, threadTs }: Thread, title: string, saved: ContextSave): boolean {
    return (
      this.sql.count(
        `INSERT INTO session_titles (team, channel, thread_ts, title, event_at, saved_at, workspace) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (team, channel, thread_ts) DO UPDATE
           SET title = excluded.title, event_at = excluded.event_at, saved_at = excluded.saved_at, workspace = excluded.workspace
           WHERE excluded.event_at >= session_titles.event_at
         RETURNING 1`,
        team,
        channel,
        threadTs,
        title,
        saved.eventAt,
        saved.savedAt,
        saved.workspace,
      ) > 0
    );
  }

  /** When the oldest row was saved (ms since the epoch), or null when none is kept. */
  oldestSavedAt(): number | null {
    return oldestSavedAt(this.sql, "session_titles");
  }

  /** Deletes up to `limit` rows saved before `before`, oldest first. Returns how many. */
  pruneSavedBefore(before: number, limit: number): number {
    return pruneSavedBefore(this.sql, "session_titles", before, limit);
  }

  /** Deletes every title of `workspace`. Returns how many. */
  deleteWorkspace(workspace: string): number {
    return this.sql.count("DELETE FROM session_titles WHERE workspace = ? RETURNING 1", workspace);
  }
}
