import type { Plan, PlannedEffect, SlackApp } from "../app/types";
import type { Inbound } from "../inbound/types";

/** The outbox effect that forwards a delivery to RELAY_URL (its raw request came with it). */
export function relayEffect(inbound: Inbound): PlannedEffect | null {
  if (!inbound.raw) return null;
  return {
    name: "relay",
    effect: {
      type: "relay",
      deliveryId: inbound.dedupeKey,
      request: inbound.raw,
      retryNum: inbound.retryNum,
      retryReason: inbound.retryReason,
    },
  };
}

const wrapped = new WeakMap<SlackApp, SlackApp>();

/**
 * The app as relay mode runs it: every delivery is forwarded — also those its own plan ignores
 * (the backend decides) — and its listeners, if any, still run beside the relay.
 */
export function withRelay(app: SlackApp): SlackApp {
  let relaying = wrapped.get(app);
  if (!relaying) {
    relaying = {
      plan(inbound: Inbound): Plan {
        const plan = app.plan(inbound);
        const relay = relayEffect(inbound);
        if (!relay) return plan;
        if ("ignore" in plan) return { effects: [relay] };
        return { ...plan, effects: [relay, ...plan.effects] };
      },
      run: app.run?.bind(app),
    };
    wrapped.set(app, relaying);
  }
  return relaying;
}
