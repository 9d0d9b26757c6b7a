import type { DeliveryListener } from "../platform/deliveryEvents";
import { log } from "../platform/log";

/** The logging subscriber: one JSON line per outcome worth reading (deliveries themselves are silent); a run's first failure at `warn`. */
export const logDeliveryEvents: DeliveryListener = (event) => {
  const { shard, key, attempts } = event;
  // Every line of a delivery names its event, as its spans and its run's logger do.
  const event_id = event.eventId;
  switch (event.type) {
    case "parked":
      log("warn", "effect parked", { event_id, shard, key, attempts, reason: event.reason });
      break;
    case "stopped":
      // The user's choice (the stop button) or a newer message: an outcome, logged as one.
      log("info", "run stopped", { event_id, shard, key, attempts, reason: event.reason });
      break;
    case "retried":
      // A run's first failure is news (a handler's bug, Slack failing): its user waits meanwhile.
      log(attempts === 1 && event.effect === "run" ? "warn" : "info", "effect will be retried", {
        event_id,
        shard,
        key,
        effect: event.effect,
        attempts,
        reason: event.reason,
        inMs: event.nextAttemptAt - Date.now(),
      });
      break;
    case "fenceRejected":
      log("warn", "fence rejected a settle: the lease expired mid-attempt; raise LEASE_MS", {
        event_id,
        shard,
        key,
        step: event.step,
      });
      break;
  }
};
