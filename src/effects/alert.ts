import type { AlertEffect } from "../app/contract";
import { DeliveryError, RetryableError, UndeliverableAlert } from "../platform/errors";
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
  async perform(effect, { outbound }, { alertWebhookUrl }) {
    if (!alertWebhookUrl) throw new UndeliverableAlert("alert: ALERT_WEBHOOK_URL is not set (any more); set it and replay");
    let answer: { ok: boolean; status: number; text: string; retryAfterMs?: number };
    try {
      answer = await outbound.call(ALERT_TIMEOUT_MS, async (signal) => {
        const response = await fetch(alertWebhookUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: effect.text }),
          signal,
        });
        const text = (await response.text()).slice(0, 100);
        return { ok: response.ok, status: response.status, text, retryAfterMs: retryAfterMs(response) };
      });
    } catch (error) {
      // The invocation's subrequests were spent: nothing was sent, no failure of the receiver's; retried in a later invocation.
      if (error instanceof DeliveryError) throw error;
      throw new RetryableError("alert: no answer from ALERT_WEBHOOK_URL");
    }
    if (answer.ok) return;
    if (answer.status === 429 || answer.status >= 500)
      throw new RetryableError(`alert: HTTP ${answer.status} from ALERT_WEBHOOK_URL`, { retryAfterMs: answer.retryAfterMs });
    throw new UndeliverableAlert(`alert: HTTP ${answer.status} ${answer.text} from ALERT_WEBHOOK_URL`);
  },
  rateKey: () => "alert",
};
