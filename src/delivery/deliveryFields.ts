import type { Effect } from "../app/contract";

/** The ids every span and log line of a row's attempt carries (a type, so it is a span's and a log line's fields as is). */
export type DeliveryFields = {
  /** The delivery's `event_id` (or `trigger_id`): what an operator searches by. */
  event_id: string;
  workspace: string;
  /** A run's listener. */
  listener?: string;
  /** The row's kind: `run`, `slack.api`, `relay`, … */
  effect?: string;
  /** The outbox row's idempotency key. */
  key: string;
};

/**
 * The event a row belongs to: a run's and a relay's carry their delivery's dedupe key; any other
 * row's key is `{dedupe key}:{name}` (app/contract/outboxKey.ts) — or, for an effect planned per
 * message fact, `{fact key}:{name}`, and then the fact key is what there is.
 */
export function eventIdOf(effect: Effect | undefined, key: string): string {
  if (effect?.type === "run") return effect.inbound.dedupeKey;
  if (effect?.type === "relay") return effect.deliveryId;
  const named = key.lastIndexOf(":");
  return named > 0 ? key.slice(0, named) : key;
}

export function deliveryFields(effect: Effect | undefined, row: { idempotency_key: string; workspace: string }): DeliveryFields {
  const key = row.idempotency_key;
  return {
    event_id: eventIdOf(effect, key),
    workspace: row.workspace,
    listener: effect?.type === "run" ? effect.listener : undefined,
    effect: effect?.type,
    key,
  };
}
