import { eventOf } from "../../inbound/eventOf";
import type { Inbound } from "../../inbound/types";
import type { SlackWebClient } from "../../slack/client";
import type { Step } from "../contract";
import type { EntityDetailsTools } from "../listeners";

/**
 * One checkpoint for the flexpane's answer: a trigger_id is good for one call, so a run retried
 * after it presented (a later line threw) does not present again, which Slack would refuse.
 */
const PRESENT_STEP = "entity.presentDetails";

/**
 * `presentDetails` for a run of `entity_details_requested`: `entity.presentDetails` on the event's
 * `trigger_id`, which lives 3 seconds — the client refuses it past then, or on a later attempt
 * (slack/handles.ts), as an ExpiredHandle: parked with the reason, never retried. Nothing for any other run.
 */
export function entityDetailsTools(
  inbound: Inbound,
  client: SlackWebClient,
  step: Step,
): EntityDetailsTools | Record<string, never> {
  const event = eventOf(inbound);
  if (event?.type !== "entity_details_requested" || typeof event.trigger_id !== "string") return {};
  const trigger_id = event.trigger_id;
  return {
    presentDetails: (details) =>
      step(PRESENT_STEP, async () => {
        await client.entity.presentDetails({ ...details, trigger_id });
        return null;
      }).then(() => undefined),
  };
}
