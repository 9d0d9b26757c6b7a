import type { AssistantThreadContext, ThreadContextStore, ThreadKey } from "../app/threadContext";
import type { MeteredSql } from "../platform/sql/meteredSql";

/** All SQL touching `assistant_threads`: each assistant thread's saved context, one row per thread. */
export class AssistantThreads implements ThreadContextStore {
  constructor(private readonly sql: MeteredSql) {}

  get({ team, channel, threadTs }: ThreadKey): AssistantThreadContext | undefined {
    const [row] = this.sql.all<{ context: string }>(
      "SELECT context FROM assistant_threads WHERE team = ? AND channel = ? AND thread_ts = ?",
      team,
      channel,
      threadTs,
    );
    return row ? (JSON.parse(row.context) as AssistantThreadContext) : undefined;
  }

  /** Last write wins: a retried run saves what it saved before; a later change saves over it. */
  save({ team, channel, threadTs }: ThreadKey, context: AssistantThreadContext, now: number): void {
    this.sql.all(
      `INSERT INTO assistant_threads (team, channel, thread_ts, context, saved_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (team, channel, thread_ts) DO UPDATE SET context = excluded.context, saved_at = excluded.saved_at`,
      team,
      channel,
      threadTs,
      JSON.stringify(context),
      now,
    );
  }
}
