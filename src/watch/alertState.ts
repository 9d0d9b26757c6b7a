import type { OpenStreak } from "./streaks";

/** The alerts' state for the console (GET /admin/api/overview `alerts`). */
export interface AlertState {
  /** Whether ALERT_WEBHOOK_URL is set (else alerts are only logged). */
  alertsSent: boolean;
  guard: { alerting: boolean; lastAlertAt: number | null };
  /** Destinations failing now (open streaks), the longest first. */
  failing: OpenStreak[];
}
