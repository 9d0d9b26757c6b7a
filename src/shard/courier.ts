import type { CallOutcome } from "../alerts/outcomes";
import type { SlackApp } from "../app/types";
import type { Authorize } from "../auth/authorize";
import type { DeliverySettings } from "../config";
import type { Courier } from "../delivery/deliverClaimed";
import type { DeliveryEvents } from "../delivery/events";
import type { CoordinatorEnv } from "../env";
import type { KeeperOf } from "../pacing/pacing";
import type { BackendAnswers } from "../relay/backendAnswers";
import { RetryAfterMemory } from "../retryAfter";
import { COMPLETION_WAIT_MS, Completions } from "./completions";
import type { Outbox } from "./outbox";
import { rowPerformer } from "./performRow";

export interface CourierParts<E extends Pick<CoordinatorEnv, "INSTALLATIONS">> {
  shard: string;
  app: SlackApp;
  authorize: Authorize<E>;
  env: E;
  settings: DeliverySettings;
  outbox: Outbox;
  events: DeliveryEvents;
  backendAnswers?: BackendAnswers;
  /** ALERT_WEBHOOK_URL (the watch delivers alerts). */
  alertWebhookUrl?: string;
  /** Told how each request of an attempt went (alerts). */
  observe?(outcome: CallOutcome, key: string): void;
  /** Moves the shard's alarm earlier when a row becomes due again. */
  wakeAt(at: number): void;
  /** Who keeps each rate key, when SLACK_PACING is on. */
  pacing?: KeeperOf;
}

/** Wires what the delivery loop needs of a shard: its outbox, settings, events and how to perform a row. */
export function buildCourier<E extends Pick<CoordinatorEnv, "INSTALLATIONS">>(parts: CourierParts<E>): Courier {
  const { shard, settings, outbox, events, wakeAt } = parts;
  // A relayed command's answer reaches the edge only once its row is completed: no waiting there.
  const completions = new Completions(outbox, COMPLETION_WAIT_MS, (key) => parts.backendAnswers?.wants(key) ?? false);
  return {
    shard,
    outbox,
    completions,
    events,
    wakeAt,
    delivery: settings.delivery,
    retryAfters: new RetryAfterMemory(),
    // A step checkpoint is a write the waiting completions can share.
    perform: rowPerformer({ ...parts, afterStep: completions.flush }),
  };
}
