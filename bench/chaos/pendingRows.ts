import type { EffectStory, EventSummary } from "../../src/rpc/eventStories";

/** An outbox row still pending when the run ended: why the chaos run is not quiescent. */
export interface PendingRow {
  eventId: string;
  key: string;
  effect: string | null;
  attempts: number | null;
  lastError: string | null;
  /** Its last settled attempt's calls, as `method ok|error` (the admin API's story). */
  lastCalls: string[];
}

type Get = (path: string) => Promise<unknown>;

const callsOf = (effect: EffectStory): string[] =>
  (effect.history.at(-1)?.calls ?? []).map((call) => `${call.method} ${call.ok ? "ok" : (call.error ?? "failed")}`);

/**
 * The rows left pending in each workspace, read through the admin API's event list
 * (`GET /admin/api/events?workspace=…&status=pending`, docs/guides/operations.md): their key,
 * effect, attempts, last error and last attempt's calls. Printed when a run is not quiescent, so
 * its failure says which rows were still draining and why.
 */
export async function pendingRowsOf(get: Get, workspaces: readonly string[]): Promise<PendingRow[]> {
  const rows: PendingRow[] = [];
  for (const workspace of workspaces) {
    const { events } = (await get(`/admin/api/events?workspace=${workspace}&status=pending&limit=500`)) as {
      events: EventSummary[];
    };
    for (const event of events)
      for (const effect of event.effects.filter((e) => e.status === "pending"))
        rows.push({
          eventId: event.id,
          key: effect.key,
          effect: effect.effect,
          attempts: effect.attempts,
          lastError: effect.lastError,
          lastCalls: callsOf(effect),
        });
  }
  return rows;
}
