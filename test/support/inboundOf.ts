import { parseEventsApi } from "../../src/inbound/parseEventsApi";
import { parseForm } from "../../src/inbound/parseForm";
import type { Inbound } from "../../src/inbound/types";
import { eventCallback, slackId } from "../../src/testing/deliveries";

/**
 * The one way tests build an `Inbound`: a delivery of `kind` and `type` in `team` (T1 unless
 * given), parsed as the edge parses it (its conversation, fact key and routing time included).
 * `payload` is what the surface carries — `{ event }` for an event (wrapped in its envelope), an
 * interaction's payload, a command's fields; `id` is its event_id or trigger_id.
 */
export function inboundOf(
  kind: Inbound["kind"],
  type: string,
  payload: Record<string, unknown>,
  { team = "T1", id = "Ev1" }: { team?: string; id?: string } = {},
): Inbound {
  const parsed =
    kind === "event"
      ? parseEventsApi(JSON.stringify(eventCallback({ type, ...(payload.event as object) }, { teamId: team, eventId: id })))
      : kind === "interaction"
        ? parseForm(
            new URLSearchParams({ payload: JSON.stringify({ type, team: { id: team }, trigger_id: id, ...payload }) }).toString(),
          )
        : parseForm(
            new URLSearchParams({
              command: type,
              team_id: team,
              trigger_id: id,
              ...(payload as Record<string, string>),
            }).toString(),
          );
  if (parsed.kind !== "inbound") throw new Error(`not a delivery: ${parsed.kind}`);
  return parsed.inbound;
}

/** An Events API delivery of `event` in `team`, its event_id `id` (a fresh one unless given). */
export const eventDelivery = (team: string, event: Record<string, unknown>, id = slackId("Ev")): Inbound =>
  inboundOf("event", String(event.type), { event }, { team, id });

/** An app_mention by U0ASKER in `channel` (its ts `ts`) of `team`, its event_id `id`. */
export const mentionIn = (team: string, channel: string, ts: string, id: string, text = "question"): Inbound =>
  eventDelivery(team, { type: "app_mention", user: "U0ASKER", team, channel, ts, text }, id);
