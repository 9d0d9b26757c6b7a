/**
 * An attempt's settlement (docs/design.md "Words"; platform/errors.ts re-exports it): what it does
 * to its outbox row, read from the disposition of the DeliveryError it threw (deliveryErrors.ts).
 */
import { DeliveryError, LeaseLost, Postponed, RunSuspended } from "./deliveryErrors";
import { describeError } from "./log";
import { RunStopped } from "./runErrors";

/** An attempt's settlement: what it does to its outbox row — delivered, or a failure's disposition with its details. */
export type Settlement =
  | { disposition: "delivered" }
  /** `maxAttempts` lowers the engine's MAX_ATTEMPTS for this failure (e.g. a bug in a handler). */
  | {
      disposition: "retry";
      reason: string;
      retryAfterMs?: number;
      maxAttempts?: number;
      retryUntil?: number;
      retryAt?: number;
    }
  | { disposition: "park"; reason: string }
  /** The run's user stopped it, or a newer message interrupted it. `uncounted`: the attempt never began (the stop met it first). */
  | { disposition: "stop"; reason: string; uncounted: boolean }
  /** The attempt found its lease taken by another claimer (a checkpoint, or a post about to be sent, was fenced out). */
  | { disposition: "lease_lost"; at: "step" | "post" }
  /**
   * Not yet: the row waits until `until` without an attempt counted (pacing, a run's sleep).
   * `suspended`: the run suspended itself (sleep, waitForAction), so its turn is released.
   */
  | { disposition: "postpone"; until: number; suspended?: true };

/**
 * The settlement of an attempt that threw `error`, read from the error's disposition. Anything
 * else is unexpected in our own code: retried, with its description as the reason.
 */
export function settlementOf(error: unknown): Settlement {
  if (!(error instanceof DeliveryError)) {
    return { disposition: "retry", reason: describeError(error, true) };
  }
  const reason = error.message.slice(0, 500);
  switch (error.disposition) {
    case "lease_lost":
      return { disposition: "lease_lost", at: error instanceof LeaseLost ? error.fencedAt : "step" };
    case "postpone":
      return {
        disposition: "postpone",
        until: error instanceof Postponed ? error.until : Date.now(),
        ...(error instanceof RunSuspended ? { suspended: true as const } : {}),
      };
    case "park":
      return { disposition: "park", reason };
    case "stop":
      return { disposition: "stop", reason, uncounted: error instanceof RunStopped && !error.began };
    case "retry":
      return {
        disposition: "retry",
        reason,
        retryAfterMs: error.retryAfterMs,
        maxAttempts: error.maxAttempts,
        retryUntil: error.retryUntil,
        retryAt: error.retryAt,
      };
  }
}
