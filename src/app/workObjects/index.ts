/**
 * Work Objects (docs.slack.dev/messaging/work-objects): `app.entityDetails`, the listener of
 * `entity_details_requested` (a user opened an unfurled entity's flexpane), and its run's
 * `presentDetails`, the answer on the event's trigger. The entity's and the unfurl's types are
 * the client's (slack/workObjects.ts); the manifest's part is in app/manifest/workObjectFeatures.ts.
 */
export type { EntityDetailsArgs } from "./entityDetails";
export { entityDetailsMatch } from "./entityDetails";
export { entityDetailsTools } from "./presentDetails";
