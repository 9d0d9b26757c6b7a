import type { LogFields } from "../platform/log";
import type { Inbound } from "./types";

/** The ids a log line written inside a delivery's run names it by: what an operator searches by (docs/guides/operations.md#logs). */
export function loggedIds(inbound: Inbound): LogFields {
  return { event_id: inbound.dedupeKey, workspace: inbound.workspace };
}
