import { describe, expect, it } from "vitest";
import { eventAgeMs, eventTimeOf } from "../../src/inbound/eventAge";
import type { Inbound } from "../../src/inbound/types";
import { eventDelivery, inboundOf } from "../support/inboundOf";

const EVENT_TIME = 1_783_536_983; // seconds, as Slack's envelope carries it

/** An app_mention whose envelope says `event_time` (absent: none), its event `event_ts`, received at `receivedAt`. */
function mention(envelope: { event_time?: unknown }, eventTs: unknown, receivedAt?: number): Inbound {
  const inbound = eventDelivery("T1", { type: "app_mention", channel: "C1", ts: "1783536983.000100", event_ts: eventTs });
  const { event_time: _, ...payload } = inbound.payload;
  return {
    ...inbound,
    payload: "event_time" in envelope ? { ...payload, event_time: envelope.event_time } : payload,
    ...(receivedAt === undefined ? {} : { receivedAt }),
  };
}

describe("an event's age: from when Slack says it happened to when the edge received it", () => {
  it("is measured from the envelope's event_time (whole seconds)", () => {
    const received = EVENT_TIME * 1000 + 90 * 60_000;
    expect(eventTimeOf(mention({ event_time: EVENT_TIME }, "1783536983.783769"))).toBe(EVENT_TIME * 1000);
    expect(eventAgeMs(mention({ event_time: EVENT_TIME }, "1783536983.783769", received))).toBe(90 * 60_000);
  });

  it("the envelope's event_time wins over the event's event_ts (a test's or a replay's ts may be anything)", () => {
    expect(eventAgeMs(mention({ event_time: EVENT_TIME }, "1.1", EVENT_TIME * 1000 + 5_000))).toBe(5_000);
  });

  it("else the event's event_ts, to the ms", () => {
    expect(eventTimeOf(mention({}, "1783536983.783769"))).toBe(1_783_536_983_783);
    expect(eventAgeMs(mention({}, "1783536983.783769", 1_783_536_985_000))).toBe(1_217);
    expect(eventAgeMs(mention({ event_time: "not a time" }, "1783536983.5", 1_783_536_984_000))).toBe(500);
  });

  it("a retry past the receipt window is as old as its event: 25 hours, whatever X-Slack-Retry-Num says", () => {
    const retry = { ...mention({ event_time: EVENT_TIME }, undefined), retryNum: 3, retryReason: "http_timeout" };
    expect(eventAgeMs({ ...retry, receivedAt: EVENT_TIME * 1000 + 25 * 3_600_000 })).toBe(25 * 3_600_000);
  });

  it("is never below zero: Slack's clock a little ahead of the edge's", () => {
    expect(eventAgeMs(mention({ event_time: EVENT_TIME }, undefined, EVENT_TIME * 1000 - 800))).toBe(0);
  });

  it("is unknown without a time in the event, or without the edge's receipt stamp: no age policy applies", () => {
    expect(eventTimeOf(mention({}, undefined))).toBeUndefined();
    expect(eventAgeMs(mention({}, "garbled", EVENT_TIME * 1000))).toBeUndefined();
    expect(eventAgeMs(mention({ event_time: 0 }, "", EVENT_TIME * 1000))).toBeUndefined();
    expect(eventAgeMs(mention({ event_time: EVENT_TIME }, undefined))).toBeUndefined();
  });

  it("Slack's own envelope (app_home_opened as delivered): event_time in seconds, event_ts to the microsecond", () => {
    const delivered = {
      ...eventDelivery("T043DB835ML", { type: "app_home_opened", user: "U043H11ES4V", channel: "D0442US94JD", tab: "messages" }),
      payload: {
        type: "event_callback",
        event_id: "Ev08EUG3TZ0S",
        event_time: 1740430328,
        event: { type: "app_home_opened", channel: "D0442US94JD", tab: "messages", event_ts: "1740430328.659101" },
      },
      receivedAt: 1740430328 * 1000 + 3 * 3_600_000,
    };
    expect(eventAgeMs(delivered)).toBe(3 * 3_600_000);
  });

  it("the app_mention page's example, whose event_ts and event_time are microseconds, reads as the future: age 0, never late", () => {
    const documented = {
      ...eventDelivery("T061EG9R6", { type: "app_mention" }),
      payload: {
        type: "event_callback",
        event_time: 1515449522000016,
        event: { type: "app_mention", ts: "1515449522.000016", channel: "C0LAN2Q65", event_ts: "1515449522000016" },
      },
      receivedAt: 1515449522000 + 3_600_000,
    };
    expect(eventAgeMs(documented)).toBe(0);
    const { event_time: _, ...withoutEventTime } = documented.payload;
    expect(eventAgeMs({ ...documented, payload: withoutEventTime })).toBe(0);
  });

  it("commands and interactivity carry no event time: never late", () => {
    const command = { ...inboundOf("command", "/echo", { text: "hi" }), receivedAt: Date.now() };
    const click = { ...inboundOf("interaction", "block_actions", { actions: [] }), receivedAt: Date.now() };
    expect([eventAgeMs(command), eventAgeMs(click)]).toEqual([undefined, undefined]);
  });
});
