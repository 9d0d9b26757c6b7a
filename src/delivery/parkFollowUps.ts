import type { Effect } from "../app/effects";
import type { SlackApp } from "../app/types";
import { describeError, log } from "../platform/log";
import type { ClaimedRow, NewRow } from "../recording/outbox";
import { newRow } from "../recording/outboxRows";

/** What the app plans once a row is finally parked, as rows to enqueue with the parking. */
export type FollowUps = (effect: Effect, row: ClaimedRow, reason: string) => NewRow[];

/**
 * The follow-ups of a parked `run` (`app.error`, a custom step's `completeError`), planned by
 * `app.parked` and keyed by the parked row's key and the follow-up's name, so they are recorded
 * once and delivered at least once like any effect. A plan that throws is logged, and the row is
 * parked without follow-ups: a bug in a follow-up never keeps a row from its dead-letter queue.
 */
export function parkFollowUps(app: SlackApp | undefined): FollowUps {
  return (effect, row, reason) => {
    if (effect.type !== "run" || !app?.parked) return [];
    try {
      return app
        .parked(effect, reason)
        .map((planned) => newRow(`${row.idempotency_key}:${planned.name}`, row.workspace, planned.effect));
    } catch (error) {
      log("error", "park follow-ups not planned", { key: row.idempotency_key, error: describeError(error, true) });
      return [];
    }
  };
}
