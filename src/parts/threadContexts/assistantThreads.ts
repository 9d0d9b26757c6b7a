import type { AssistantThreadContext, ContextSave, ThreadContextStore } from "../../app/contract";
import type { Conversation } from "../../inbound/types";
import type { MeteredSql } from "../../platform/sql/meteredSql";
import { oldestSavedAt, pruneSavedBefore } from "./keptByAge";

/**
 * All SQL touching `assistant_threads`: each assistant thread's saved context, one row per thread,
 * ordered by the saving event's time, pruned by age, deleted with its workspace's installation.
 */
export class AssistantThreads implements ThreadContextStore {
  constructor(private readonly sql: MeteredSql) {}

  get({ team, channel, threadTs }: Pick<Conversation, "team" | "channel" | "threadTs">): AssistantThreadContext | undefined {
    const [row] = this.sql.all<{ context: string }>(
      "SELECT context FROM assistant_threads WHERE team = ? AND channel = ? AND thread_ts = ?",
      team,
      channel,
      threadTs,
    );
    return row ? (JSON.parse(row.context) as AssistantThreadContext) : undefined;
  }

  /**
   * The latest event wins, not the latest save: a save of an event at or after the saved one's
   * replaces it (a retried run saves what it saved before); an older event's changes nothing.
   * Returns whether it was saved.
   */
  save(
    { team, channel, threadTs }: Pick<Conversation, "team" | "channel" | "threadTs">,
    context: AssistantThreadContext,
    saved: ContextSave,
  ): boolean {
    return (
      this.sql.count(
        `INSERT INTO assistant_threads (team, channel, thread_ts, context, saved_at, event_at, workspace) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (team, channel, thread_ts) DO UPDATE
           SET context = excluded.context, saved_at = excluded.saved_at, event_at = excluded.event_at, workspace = excluded.workspace
           WHERE assistant_threads.event_at IS NULL OR excluded.event_at >= assistant_threads.event_at
         RETURNING 1`,
        team,
        channel,
        threadTs,
        JSON.stringify(context),
        saved.savedAt,
        saved.eventAt,
        saved.workspace,
      ) > 0
    );
  }

  /** When the oldest row was saved (ms since the epoch), or null when none is kept. */
  oldestSavedAt(): number | null {
    return oldestSavedAt(this.sql, "assistant_threads");
  }

  /** Deletes up to `limit` rows saved before `before`, oldest first. Returns how many. */
  pruneSavedBefore(before: number, limit: number): number {
    return pruneSavedBefore(this.sql, "assistant_threads", before, limit);
  }

  /**
   * Deletes every context of `workspace`. Rows of before 0011 name none; a workspace's shard
   * holds only its own workspace's threads, so they go too. Returns how many.
   */
  deleteWorkspace(workspace: string): number {
    return this.sql.count("DELETE FROM assistant_threads WHERE workspace = ? OR workspace IS NULL RETURNING 1", workspace);
  }
}
