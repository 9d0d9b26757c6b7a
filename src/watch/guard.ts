import type { MeteredSql } from "../platform/sql/meteredSql";
import type { HealthWindow } from "../rpc/watch";
import type { AlertSettings } from "../settings";
import { guardAlert, guardRecovered } from "./alertTexts";

/** While the failure ratio stays above the threshold, the alert is repeated this often. */
export const GUARD_REPEAT_MS = 15 * 60_000;
/** A new crossing this soon after an alert is not alerted again (a ratio hovering at the threshold). */
export const GUARD_MIN_GAP_MS = 5 * 60_000;
/** Recovered only once the ratio is this far below the threshold (hysteresis). */
export const GUARD_RECOVERY_FACTOR = 0.8;

/** Whether the guard is alerting now (the ratio is above the threshold), and when it last alerted. */
export function guardState(sql: MeteredSql): { alerting: boolean; lastAlertAt: number | null } {
  const [state] = sql.all<{ alerted_at: number | null; active: number }>(
    "SELECT alerted_at, active FROM guard_state WHERE id = 1",
  );
  return { alerting: state?.active === 1, lastAlertAt: state?.alerted_at ?? null };
}

/**
 * The guard against Slack's auto-disable (docs/guides/operations.md "Alerts"), judged after every flush of acks:
 * above the threshold means at least GUARD_MIN_REQUESTS acks in the window and more than
 * GUARD_FAILURE_RATIO of them failed. Crossing it alerts — unless an alert went out within the
 * last 5 minutes — and the alert is repeated every 15 minutes while it lasts; falling below 0.8
 * of the threshold ends it with one "recovered". Returns the alert text, if any.
 */
export function judge(sql: MeteredSql, window: HealthWindow, settings: AlertSettings, now: number): string | undefined {
  const { alerting: active, lastAlertAt: alertedAt } = guardState(sql);
  const ratio = window.answered === 0 ? 0 : window.failed / window.answered;
  const above = window.answered >= settings.guardMinRequests && ratio > settings.guardFailureRatio;
  const save = (at: number | null, nowActive: boolean) =>
    sql.all(
      `INSERT INTO guard_state (id, alerted_at, active) VALUES (1, ?1, ?2)
       ON CONFLICT (id) DO UPDATE SET alerted_at = ?1, active = ?2`,
      at,
      nowActive ? 1 : 0,
    );
  if (above) {
    const gap = alertedAt === null ? Infinity : now - alertedAt;
    if (gap >= (active ? GUARD_REPEAT_MS : GUARD_MIN_GAP_MS)) {
      save(now, true);
      return guardAlert(window);
    }
    if (!active) save(alertedAt, true);
    return undefined;
  }
  if (active && ratio <= settings.guardFailureRatio * GUARD_RECOVERY_FACTOR) {
    save(alertedAt, false);
    return guardRecovered(window);
  }
  return undefined;
}
