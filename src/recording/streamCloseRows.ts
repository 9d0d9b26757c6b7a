import { parkedCloses } from "../app/streams";
import { describeError, log } from "../platform/log";
import type { NewRow } from "./outboxRows";
import { newRow } from "./outboxRows";

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
