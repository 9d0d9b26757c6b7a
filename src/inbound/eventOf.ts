import { isObject } from "./fields";
import type { Inbound } from "./types";

/** An Events API delivery's `event`; undefined for commands and interactions. */
export function eventOf(inbound: Inbound): Record<string, unknown> | undefined {
  return inbound.kind === "event" && isObject(inbound.payload.event) ? inbound.payload.event : undefined;
}
