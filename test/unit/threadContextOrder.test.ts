import { describe, expect, it } from "vitest";
import { eventTimeOf } from "../../src/app/assistant/threadContext";
import type { Inbound } from "../../src/inbound/types";

const delivery = (payload: Record<string, unknown>, receivedAt?: number): Inbound => ({
  kind: "event",
  dedupeKey: "Ev1",
  workspace: "T1",
  teamId: "T1",
  isEnterpriseInstall: false,
  type: "assistant_thread_context_changed",
  payload,
  ...(receivedAt === undefined ? {} : { receivedAt }),
});

describe("the time a thread context's save is ordered by", () => {
  it("the event's event_ts, to the microsecond: two events of one second keep their order", () => {
    const first = eventTimeOf(delivery({ event: { event_ts: "1783536983.783769" }, event_time: 1783536983 }), 0);
    const second = eventTimeOf(delivery({ event: { event_ts: "1783536983.783770" }, event_time: 1783536983 }), 0);
    expect(first).toBe(1_783_536_983_783_769);
    expect(second - first).toBe(1);
  });

  it("else the envelope's event_time (whole seconds), else when the edge received it", () => {
    expect(eventTimeOf(delivery({ event: {}, event_time: 1783536983 }), 0)).toBe(1_783_536_983_000_000);
    expect(eventTimeOf(delivery({ event: { event_ts: "not a ts" } }, 1_783_536_983_500), 0)).toBe(1_783_536_983_500_000);
    expect(eventTimeOf(delivery({}), 1_783_536_984_000)).toBe(1_783_536_984_000_000);
  });
});
