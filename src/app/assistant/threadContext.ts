import { isObject } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";

/** A Slack `ts` ("1783536983.783769") in microseconds, exactly (a double would round it); undefined if it is none. */
function microsOfTs(ts: unknown): number | undefined {
  if (typeof ts !== "string") return undefined;
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(ts);
  if (!match) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? "").padEnd(6, "0"));
}

/**
 * When Slack says a delivery's event happened, in microseconds: the event's `event_ts`, else the
 * envelope's `event_time` (whole seconds), else when the edge received it — the same on every
 * retry of the run, so saves are ordered by the events, not by when their runs happened to run.
 */
export function eventTimeOf(inbound: Inbound, now: number): number {
  const event = isObject(inbound.payload.event) ? inbound.payload.event : {};
  const eventTs = microsOfTs(event.event_ts);
  if (eventTs !== undefined) return eventTs;
  const eventTime = inbound.payload.event_time;
  if (typeof eventTime === "number" && Number.isFinite(eventTime)) return Math.floor(eventTime) * 1_000_000;
  return (inbound.receivedAt ?? now) * 1_000;
}
