import { describeError, log } from "./log";

/** What the delivery loop reports about each settled attempt. */
interface Settled {
  shard: string;
  /** The outbox row's idempotency key. */
  key: string;
  /** Attempts counted on the row, this one included (0 for a postponement, which is no attempt). */
  attempts: number;
  /** The delivery's event_id (or trigger_id) the row belongs to (delivery/deliveryFields.ts), when known. */
  eventId?: string;
}

/**
 * Delivery outcomes as typed events: logging, counters and (later) metrics and alerts
 * subscribe to the same facts instead of each being written in place.
 */
export type DeliveryEvent =
  /** `recordedAt`: when the row's delivery was recorded (delivery latency = now − recordedAt). */
  | (Settled & { type: "delivered"; recordedAt: number })
  /** `effect`: the row's kind (`run`, `slack.api`, …), when its payload could be read. */
  | (Settled & { type: "retried"; reason: string; nextAttemptAt: number; effect?: string })
  | (Settled & { type: "parked"; reason: string })
  /** The run's user stopped it, or a newer message interrupted it: an outcome, never alerted on. */
  | (Settled & { type: "stopped"; reason: string })
  | (Settled & { type: "postponed"; until: number })
  /**
   * A settle refused by the fence: the lease ran out mid-attempt and another claimer owns the row.
   * `step`: a checkpoint was refused; `post`: a post was not sent (the new owner looks for it first).
   */
  | (Settled & { type: "fenceRejected"; step: "postpone" | "complete" | "retry" | "park" | "stop" | "step" | "post" });

export type DeliveryListener = (event: DeliveryEvent) => void;

/** Fans each event out to every subscriber; a failing subscriber never affects delivery or the others. */
export class DeliveryEvents {
  private readonly listeners: DeliveryListener[] = [];

  subscribe(listener: DeliveryListener): this {
    this.listeners.push(listener);
    return this;
  }

  emit(event: DeliveryEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        log("error", "delivery event subscriber failed", { event: event.type, error: describeError(error) });
      }
    }
  }
}

/** Totals per outcome since the shard instance started (`stats().counters`). */
export interface DeliveryCounters {
  delivered: number;
  retried: number;
  parked: number;
  /** Runs their user stopped or a newer message interrupted: counted apart from failures. */
  stopped: number;
  postponed: number;
  /** Settles refused by the fence: the lease ran out mid-attempt and another claimer owns the row. */
  fenceRejections: number;
}

/** The counters subscriber: totals per outcome, for `stats()`. */
export function countInto(counters: DeliveryCounters): DeliveryListener {
  return (event) => {
    if (event.type === "fenceRejected") counters.fenceRejections++;
    else counters[event.type]++;
  };
}

export function newCounters(): DeliveryCounters {
  return { delivered: 0, retried: 0, parked: 0, stopped: 0, postponed: 0, fenceRejections: 0 };
}
