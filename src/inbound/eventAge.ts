import { isObject } from "./fields";
import type { Inbound } from "./types";

/** Seconds since the epoch (a number, or a Slack `ts` string) as ms; undefined if it is no positive time. */
function msOfSeconds(value: unknown): number | undefined {
  const seconds = typeof value === "number" ? value : typeof value === "string" && value !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * 1000) : undefined;
}

/**
 * When Slack says an Events API event happened (ms since the epoch): the envelope's `event_time`
 * (whole seconds; every `event_callback` has one), else the event's `event_ts`. Undefined for
 * commands and interactivity, which carry no such time.
 */
export function eventTimeOf(inbound: Inbound): number | undefined {
  if (inbound.kind !== "event") return undefined;
  const event = isObject(inbound.payload.event) ? inbound.payload.event : {};
  return msOfSeconds(inbound.payload.event_time) ?? msOfSeconds(event.event_ts);
}

/**
 * How old an event was when the edge received it (ms, never below 0: the clocks differ a little),
 * the same on every plan of the delivery. Undefined when either time is unknown (not an event, no
 * time in it, or an inbound the edge did not stamp): then no age policy applies to it.
 */
export function eventAgeMs(inbound: Inbound): number | undefined {
  const happened = eventTimeOf(inbound);
  if (happened === undefined || inbound.receivedAt === undefined) return undefined;
  return Math.max(0, inbound.receivedAt - happened);
}
