import type { AlertSettings } from "../config";
import type { MeteredSql } from "../shard/meteredSql";
import { guardAlert, guardRecovered } from "./alertTexts";
import type { HealthWindow } from "./answerWindow";

/** While the failure ratio stays above the threshold, the alert is repeated this often. */
export const GUARD_REPEAT_MS = 15 * 60_000;

/**
 * The guard against Slack's auto-disable (README "Alerts"): judged after every flush of answers.
 * Alerts when the window holds at least GUARD_MIN_REQUESTS answers and more than
 * GUARD_FAILURE_RATIO of them failed — again every 15 minutes while that lasts — and says so
 * once when the ratio is back below the threshold. Returns the alert text, if any.
 */
export function judge(sql: MeteredSql, window: HealthWindow, settings: AlertSettings, now: number): string | undefined {
  const [state] = sql.all<{ alerted_at: number | null }>("SELECT alerted_at FROM guard_state WHERE id = 1");
  const alertedAt = state?.alerted_at ?? null;
  const failing = window.answered >= settings.guardMinRequests && window.ratio > settings.guardFailureRatio;
  if (failing && (alertedAt === null || now - alertedAt >= GUARD_REPEAT_MS)) {
    sql.all(
      `INSERT INTO guard_state (id, alerted_at) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET alerted_at = excluded.alerted_at`,
      now,
    );
    return guardAlert(window);
  }
  if (!failing && alertedAt !== null && window.ratio <= settings.guardFailureRatio) {
    sql.all("UPDATE guard_state SET alerted_at = NULL WHERE id = 1");
    return guardRecovered(window);
  }
  return undefined;
}
