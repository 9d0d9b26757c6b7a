import { type EventArgs, type EventOf, eventMatch, type Match } from "../listeners";
import { ENTITY_DETAILS_REQUESTED } from "../manifest";

/** What an `app.entityDetails` listener sees: the envelope and Slack's `EntityDetailsRequestedEvent`. */
export type EntityDetailsArgs = EventArgs<EventOf<"entity_details_requested">>;

/** `entity_details_requested` events, as `app.event` of it matches them. */
export const entityDetailsMatch: Match = eventMatch([ENTITY_DETAILS_REQUESTED]);
