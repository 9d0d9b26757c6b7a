import { InvalidSetting } from "../platform/errors";
import { lenient } from "./lenient";
import { oncePerEnv } from "./once";

/**
 * Alerts and the guard against Slack's auto-disable (docs/guides/operations.md "Alerts"). Read leniently: a bad value
 * falls back to its default (none, for the URL) and is listed in `problems` — monitoring that is
 * misconfigured must neither stop deliveries nor go quiet about everything else.
 */
export interface AlertSettings {
  /** Where alerts are POSTed as `{"text": …}` (a Slack incoming webhook works); none: alerts are only logged. */
  webhookUrl?: string;
  /** The guard judges a window only with at least this many acks in it. */
  guardMinRequests: number;
  /** The guard alerts when more than this share of the window's acks failed. */
  guardFailureRatio: number;
  /** A shard whose SQLite reaches this many bytes is alerted (Cloudflare allows 10 GB per object). */
  storageAlertBytes: number;
  /** Settings that were invalid, each replaced by its default. */
  problems: InvalidSetting[];
}

/** Never throws: invalid alert settings fall back to defaults, listed in `problems`. */
export const alertSettings = oncePerEnv((vars): AlertSettings => {
  const { orDefault, problems } = lenient(vars);
  const guardFailureRatio = orDefault("GUARD_FAILURE_RATIO", (ratio) => {
    if (ratio >= 1) throw new InvalidSetting("GUARD_FAILURE_RATIO", `must be below 1 (Slack disables at 0.95), got ${ratio}`);
  });
  return {
    webhookUrl: orDefault("ALERT_WEBHOOK_URL"),
    guardMinRequests: orDefault("GUARD_MIN_REQUESTS"),
    guardFailureRatio,
    storageAlertBytes: orDefault("STORAGE_ALERT_BYTES"),
    problems,
  };
});
