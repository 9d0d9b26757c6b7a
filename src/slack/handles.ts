import { ExpiredHandle } from "../platform/errors";

/**
 * Slack's short-lived handles, one rule each and one clock for both: the time the delivery was
 * recorded (its outbox row's `created_at`), whether a `response_url` effect or a run uses them.
 * - `response_url`: valid 30 minutes and 5 uses;
 * - `trigger_id` (views.open, entity.presentDetails): valid 3 seconds, so only the immediate attempt may use it.
 */
export const RESPONSE_URL_TTL_MS = 30 * 60_000;
export const RESPONSE_URL_USES = 5;
export const TRIGGER_ID_TTL_MS = 3_000;

/** The age and history of the delivery whose handles an attempt uses. */
export interface HandleClock {
  /** When the delivery was recorded (ms since the epoch). */
  recordedAt: number;
  /** Attempts before this one. */
  attempts: number;
  /**
   * Posts to the response_url known to have been made before this attempt: every earlier attempt
   * of a `response_url` effect was one; a `run`'s earlier attempts may have made none, so it
   * counts 0 and only its posts in this attempt count (Slack's own answer parks the rest).
   */
  responseUrlUsesBefore: number;
}

/** Throws ExpiredHandle when a response_url can no longer be used (`usesBefore` counts earlier posts). */
export function assertResponseUrlUsable(clock: HandleClock, usesBefore: number, now: number): void {
  if (now - clock.recordedAt > RESPONSE_URL_TTL_MS) throw new ExpiredHandle("response_url expired (valid 30 minutes)");
  if (usesBefore >= RESPONSE_URL_USES) throw new ExpiredHandle("response_url used up (5 uses)");
}

/** The methods that answer on the delivery's trigger_id: a modal opened, a Work Object's flexpane presented. */
export const TRIGGER_METHODS: ReadonlySet<string> = new Set(["views.open", "entity.presentDetails"]);

/** Throws ExpiredHandle when the delivery's trigger_id is past use by `method`. */
export function assertTriggerUsable(clock: HandleClock, now: number, method = "views.open"): void {
  if (clock.attempts > 0 || now - clock.recordedAt > TRIGGER_ID_TTL_MS) {
    throw new ExpiredHandle(`trigger_id expired (valid 3 seconds): ${method} gets only the immediate attempt`);
  }
}
