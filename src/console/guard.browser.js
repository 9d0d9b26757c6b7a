// The guard's panel: answers to Slack in the last 60 minutes, destinations failing now, where alerts go.
import { $, el } from "./dom.browser.js";
import { number, time } from "./format.browser.js";

export function renderAlerts(alerts) {
  const list = $("failing");
  list.replaceChildren(
    ...alerts.failing.map((streak) =>
      el(
        "li",
        `${streak.label}: ${streak.failures} consecutive failed attempt${streak.failures === 1 ? "" : "s"}, last ${time(streak.lastFailedAt)} — ${streak.lastError ?? "unknown error"}`,
      ),
    ),
  );
  $("failing-none").hidden = alerts.failing.length > 0;
  $("alerts-sent").textContent = alerts.alertsSent
    ? alerts.guard.alerting
      ? "The guard is alerting: too many answers to Slack failed."
      : "Alerts go to ALERT_WEBHOOK_URL."
    : "ALERT_WEBHOOK_URL is not set: alerts are only logged.";
}

export function renderGuard(guard) {
  const causes = Object.entries(guard.by_cause)
    .map(([cause, n]) => `${cause}: ${n}`)
    .join(", ");
  $("guard").textContent =
    guard.answered === 0
      ? "No answers to Slack counted in the last 60 minutes (each Worker instance sends its counts within 10 seconds)."
      : `${number(guard.answered)} answered, ${number(guard.failed)} failed (${Math.round(guard.ratio * 1000) / 10} %)${causes ? ` — ${causes}` : ""}. Slack disables event subscriptions above 95 % within 60 minutes.`;
}
