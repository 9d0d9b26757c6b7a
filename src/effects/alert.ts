import type { AlertEffect } from "../app/contract";
import { RetryableError, UndeliverableAlert } from "../platform/errors";
import { retryAfterMs } from "../platform/retryAfter";
import { alertSettings } from "../settings";
import type { EffectKind } from "./kind";

/** An alert receiver answers at once; a slow one is retried rather than waited for. */
const ALERT_TIMEOUT_MS = 10_000;

/**
 * `alert`: one message to ALERT_WEBHOOK_URL as `{"text": …}` (docs/guides/operations.md "Alerts"), planned by the
 * watch (src/watch/). Delivered like any effect, so a broken receiver delays alerts and blocks
 * nothing else: 2xx delivers; 429, 5xx or no answer is retried with backoff; any other 4xx (a
 * deleted Slack webhook answers 404 `no_service`) parks the alert for an operator.
 */
export const alert: EffectKind<AlertEffect, { alertWebhookUrl?: string }> = {
  type: "alert",
  // Alerts are the watch's rows: a workspace shard has none to send, and no receiver to send them to.
  deps: ({ role, env }) => ({ alertWebhookUrl: role === "watch" ? alertSettings(env).webhookUrl : undefined }),
  async perform(effect, _, { alertWebhookUrl }) {
    if (!alertWebhookUrl) throw new UndeliverableAlert("alert: ALERT_WEBHOOK_URL is not set (any more); set it and replay");
    let response: Response;
    try {
      response = await fetch(alertWebhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: effect.text }),
        signal: AbortSignal.timeout(ALERT_TIMEOUT_MS),
      });
    } catch {
      throw new RetryableError("alert: no answer from ALERT_WEBHOOK_URL");
    }
    const answer = (await response.text()).slice(0, 100);
    if (response.ok) return;
    if (response.status === 429 || response.status >= 500)
      throw new RetryableError(`alert: HTTP ${response.status} from ALERT_WEBHOOK_URL`, { retryAfterMs: retryAfterMs(response) });
    throw new UndeliverableAlert(`alert: HTTP ${response.status} ${answer} from ALERT_WEBHOOK_URL`);
  },
  rateKey: () => "alert",
};
