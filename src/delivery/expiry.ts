import type { Effect } from "../app/types";

/** Slack's handle lifetimes: response_url 30 minutes and 5 uses, trigger_id 3 seconds. */
export const RESPONSE_URL_TTL_MS = 30 * 60_000;
export const RESPONSE_URL_USES = 5;
export const TRIGGER_ID_TTL_MS = 3_000;

/** An effect that depends on a Slack handle which can no longer work. It is parked, not retried. */
export class ExpiredHandle extends Error {
  override name = "ExpiredHandle";
}

/**
 * Why this attempt can no longer succeed, or undefined. `views.open` with a trigger_id gets
 * only its immediate attempt: by the first retry the trigger is long gone.
 */
export function expiredHandle(effect: Effect, attempts: number, createdAt: number, now: number): string | undefined {
  if (effect.type === "response_url") {
    if (now - createdAt > RESPONSE_URL_TTL_MS) return "response_url expired (valid 30 minutes)";
    if (attempts >= RESPONSE_URL_USES) return "response_url used up (5 uses)";
  }
  if (effect.type === "slack.api" && effect.method === "views.open" && typeof effect.body.trigger_id === "string") {
    if (triggerExpired(attempts, createdAt, now)) return TRIGGER_EXPIRED;
  }
  return undefined;
}

export const TRIGGER_EXPIRED = "trigger_id expired (valid 3 seconds): views.open gets only the immediate attempt";

/** A trigger_id is good for the immediate attempt only, and for 3 seconds at most. */
export function triggerExpired(attempts: number, createdAt: number, now: number): boolean {
  return attempts > 0 || now - createdAt > TRIGGER_ID_TTL_MS;
}

/** Throws ExpiredHandle when a response_url received at `receivedAt` is past its 30 minutes. */
export function assertResponseUrlFresh(receivedAt: number | undefined, now: number): void {
  if (receivedAt !== undefined && now - receivedAt > RESPONSE_URL_TTL_MS) throw new ExpiredHandle("response_url expired (valid 30 minutes)");
}
