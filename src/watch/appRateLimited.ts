import type { MeteredSql } from "../platform/sql/meteredSql";
import type { AppRateLimited, AppRateLimitedSummary } from "../rpc/watch";
import { appRateLimitedAlert } from "./alertTexts";

/** Notices are kept this long, and counted over the last day. */
const KEEP_MS = 7 * 24 * 3_600_000;
const DAY_MS = 24 * 3_600_000;

/**
 * Records a notice once per workspace and minute (a repeat of the envelope adds nothing). Returns
 * the alert to send when it is new, else null.
 */
export function recordAppRateLimited(sql: MeteredSql, notice: AppRateLimited, now: number): string | null {
  sql.all("DELETE FROM app_rate_limited WHERE received_at < ?", now - KEEP_MS);
  const added = sql.count(
    `INSERT INTO app_rate_limited (workspace, minute, received_at) VALUES (?, ?, ?)
     ON CONFLICT (workspace, minute) DO NOTHING RETURNING 1`,
    notice.workspace,
    notice.minute,
    now,
  );
  return added === 0 ? null : appRateLimitedAlert(notice.workspace, notice.minute);
}

export function appRateLimitedSummary(sql: MeteredSql, now: number): AppRateLimitedSummary {
  const { n } = sql.one<{ n: number }>("SELECT count(*) AS n FROM app_rate_limited WHERE received_at >= ?", now - DAY_MS);
  const [latest] = sql.all<{ workspace: string; minute: number; received_at: number }>(
    "SELECT workspace, minute, received_at FROM app_rate_limited ORDER BY received_at DESC LIMIT 1",
  );
  return { last_24h: n, latest: latest ?? null };
}
