import type { PlannedEffect } from "../app/types";
import type { Inbound } from "../inbound/types";

/**
 * Relay mode's own effect (routing/servedApp.ts): every delivery that carries its raw request is
 * forwarded to RELAY_URL — also those the app's plan ignores (the backend decides) — and the
 * app's listeners, if any, still run beside it.
 */
export function relayEffects(inbound: Inbound): PlannedEffect[] {
  if (!inbound.raw) return [];
  return [
    {
      name: "relay",
      effect: {
        type: "relay",
        deliveryId: inbound.dedupeKey,
        request: inbound.raw,
        retryNum: inbound.retryNum,
        retryReason: inbound.retryReason,
      },
    },
  ];
}
