import type { AckBody, PlannedEffect } from "../app/contract";
import { outboxKeyOf } from "../app/contract";
import type { Inbound } from "../inbound/types";
import type { RelaySettings } from "../settings";

/** The relay effect's name: its outbox row is `{dedupe key}:relay`. */
const RELAY = "relay";

/** The outbox key of a delivery's relay row. */
export const relayRowKey = (dedupeKey: string) => outboxKeyOf({ dedupeKey }, { name: RELAY });

/**
 * Whether the ack of this delivery waits for the backend (docs/guides/relay.md "Synchronous answers"): commands
 * and interactivity, whose ack Slack shows, when RELAY_SYNC_MS allows and the app's own listener
 * gave no ack body of its own (that one wins). Events API requests are never held.
 */
export function awaitsBackend(inbound: Inbound, relay: RelaySettings | null, ackBody: AckBody | undefined): boolean {
  return relay !== null && relay.syncMs > 0 && inbound.kind !== "event" && inbound.raw !== undefined && ackBody === undefined;
}

/**
 * Relay mode's own effect (routing/servedApp.ts): every delivery that carries its raw request is
 * forwarded to RELAY_URL — also those the app's plan ignores (the backend decides) — and the
 * app's listeners, if any, still run beside it.
 */
export function relayEffects(inbound: Inbound): PlannedEffect[] {
  if (!inbound.raw) return [];
  return [
    {
      name: RELAY,
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
