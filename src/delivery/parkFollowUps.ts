import type { Effect, PlannedEffect, RunEffect, SlackApp } from "../app/contract";
import { parkedCloses } from "../app/streams";
import { channelOf } from "../inbound/channelOf";
import { describeError, log } from "../platform/log";
import type { ClaimedRow, NewRow } from "../recording/outbox";
import { newRow } from "../recording/outboxRows";

/** What is planned once a row is finally parked (or a run's first attempt failed: failureNotices.ts), as rows to enqueue with that settle. */
export type FollowUps = (effect: Effect, row: ClaimedRow, reason: string) => NewRow[];

/** A row's step checkpoint by name (outbox.steps.read): a parked row keeps its steps. */
export type CheckpointOf = (key: string, name: string) => string | undefined;

/**
 * The follow-ups that close the messages a parked run `key` left streaming, however it was
 * parked or stopped (its attempts ran out, an error parked it, the user stopped it): read from its stream
 * checkpoints, which a parked row keeps and takes no more writes to (app/streams/close/parkedCloses.ts).
 */
export function streamCloseRows(checkpoint: CheckpointOf, key: string, workspace: string, channel?: string): NewRow[] {
  try {
    return parkedCloses((name) => checkpoint(key, name), channel).map((planned) =>
      newRow(`${key}:${planned.name}`, workspace, planned.effect),
    );
  } catch (error) {
    // Planned inside the parking's transaction: an unreadable checkpoint must not undo the parking.
    log("error", "a parked run's streams not closed", { key, error: describeError(error, true) });
    return [];
  }
}

/**
 * A run's planned follow-ups as rows, keyed by the settled row's key and each follow-up's name, so
 * they are recorded once and delivered at least once like any effect. A plan that throws is
 * logged (as `what`) and plans none: a bug in a follow-up never keeps a row from its settle.
 */
export function plannedFollowUps(what: string, plan: (effect: RunEffect, reason: string) => PlannedEffect[]): FollowUps {
  return (effect, row, reason) => {
    if (effect.type !== "run") return [];
    try {
      return plan(effect, reason).map((planned) =>
        newRow(`${row.idempotency_key}:${planned.name}`, row.workspace, planned.effect),
      );
    } catch (error) {
      log("error", `${what} not planned`, {
        event_id: effect.inbound.dedupeKey,
        key: row.idempotency_key,
        error: describeError(error, true),
      });
      return [];
    }
  };
}

/**
 * The follow-ups of a parked `run` (`app.error`, a custom step's `completeError`), planned by
 * `app.parked` — after the coordinator's `own` (failureNotices.ts: the user told, an agent
 * session's end) — in the parking's transaction: a row finally parked still is, whatever they do.
 */
export function parkFollowUps(app: SlackApp | undefined, own: NonNullable<SlackApp["parked"]> = () => []): FollowUps {
  return plannedFollowUps("park follow-ups", (effect, reason) => [
    ...own(effect, reason),
    ...(app?.parked?.(effect, reason) ?? []),
  ]);
}

/** At each parking of a `run` (a replayed one's too), whatever the app plans: its open streams are closed. */
export function parkedStreamCloses(checkpoint: CheckpointOf): FollowUps {
  return (effect, row) =>
    effect.type === "run" ? streamCloseRows(checkpoint, row.idempotency_key, row.workspace, channelOf(effect.inbound)) : [];
}
