import type { MeteredSql } from "../platform/sql/meteredSql";

/** Workspaces looked at per alarm: each costs an RPC to its bucket 0, two when it changes. */
const CHECKS_PER_ALARM = 20;

/** All SQL touching `spread_checks` (in the watch): when to look at a workspace's spread again. */
export class SpreadChecks {
  constructor(private readonly sql: MeteredSql) {}

  /** A busy report: look at the workspace at once — or when its hold ends — unless a check is due sooner. Writes only when that moves. */
  busy(workspace: string, now: number): void {
    this.sql.all(
      `INSERT INTO spread_checks (workspace, due_at) VALUES (?1, ?2)
       ON CONFLICT (workspace) DO UPDATE SET due_at = max(?2, hold_until) WHERE max(?2, hold_until) < due_at`,
      workspace,
      now,
    );
  }

  /** After a look: the next (`dueAt`, held until `holdUntil`), or none. */
  next(workspace: string, dueAt: number | null, holdUntil: number): void {
    if (dueAt === null) this.sql.all("DELETE FROM spread_checks WHERE workspace = ?", workspace);
    else
      this.sql.all(
        `INSERT INTO spread_checks (workspace, due_at, hold_until) VALUES (?1, ?2, ?3)
         ON CONFLICT (workspace) DO UPDATE SET due_at = ?2, hold_until = ?3`,
        workspace,
        dueAt,
        holdUntil,
      );
  }

  /** The workspaces due at `now`, the longest waiting first. */
  due(now: number): string[] {
    return this.sql
      .all<{ workspace: string }>(
        "SELECT workspace FROM spread_checks WHERE due_at <= ? ORDER BY due_at LIMIT ?",
        now,
        CHECKS_PER_ALARM,
      )
      .map((row) => row.workspace);
  }

  /** When the next check is due, or null (the watch's wake source). */
  nextDueAt(): number | null {
    return this.sql.all<{ at: number | null }>("SELECT min(due_at) AS at FROM spread_checks")[0]?.at ?? null;
  }
}
