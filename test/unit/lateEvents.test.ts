import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import type { Plan } from "../../src/app/contract/slackApp";
import { withOwnEffects } from "../../src/app/contract/withOwnEffects";
import type { Inbound } from "../../src/inbound/types";
import { eventDelivery, inboundOf } from "../support/inboundOf";

const HOUR = 3_600_000;

/** A message "ping" whose envelope says it happened `ageMs` before the edge received it. */
function pingAged(ageMs: number): Inbound {
  const inbound = eventDelivery("T1", { type: "message", channel: "C1", user: "U1", text: "ping", ts: "1783536983.000100" });
  const eventTime = Number(inbound.payload.event_time);
  return { ...inbound, receivedAt: eventTime * 1000 + ageMs };
}

const runsOf = (plan: Plan) => ("ignore" in plan ? plan.ignore : plan.effects.map((e) => e.name));

describe("late events: a listener answers events up to its maximum age", () => {
  it("by default an hour: a ping 59 minutes old is answered, one 61 minutes old is ignored as a late event", () => {
    const app = new App().message("ping", async () => {});
    expect(runsOf(app.plan(pingAged(59 * 60_000)))).toEqual(["run:message:ping"]);
    const plan = app.plan(pingAged(61 * 60_000));
    expect(plan).toEqual({
      ignore: "late event",
      late: { ageMs: 61 * 60_000, listeners: [{ listener: "message:ping", maxEventAgeMs: HOUR }] },
    });
  });

  it("new App({ maxEventAgeMs }) sets the app's default; a listener's own maxEventAgeMs overrides it (Infinity: any age)", () => {
    const app = new App({ maxEventAgeMs: 5 * 60_000 })
      .message("ping", async () => {})
      .message("ping", { name: "replayed", maxEventAgeMs: Number.POSITIVE_INFINITY, run: async () => {} })
      .message("ping", { name: "quarter", maxEventAgeMs: 15 * 60_000, run: async () => {} });
    expect(runsOf(app.plan(pingAged(4 * 60_000)))).toEqual(["run:message:ping", "run:replayed", "run:quarter"]);
    const tenMinutes = app.plan(pingAged(10 * 60_000));
    expect(runsOf(tenMinutes)).toEqual(["run:replayed", "run:quarter"]);
    expect(tenMinutes.late).toEqual({ ageMs: 10 * 60_000, listeners: [{ listener: "message:ping", maxEventAgeMs: 5 * 60_000 }] });
    const dayOld = app.plan(pingAged(25 * HOUR));
    expect(runsOf(dayOld)).toEqual(["run:replayed"]);
    expect(dayOld.late?.listeners.map((l) => l.listener)).toEqual(["message:ping", "quarter"]);
  });

  it("app.assistant({ maxEventAgeMs }) gives its handlers their own maximum age", () => {
    const dm = { type: "message", channel: "D1", channel_type: "im", user: "U1", text: "hi", ts: "1783536983.000200" };
    const aged = (ageMs: number): Inbound => {
      const inbound = eventDelivery("T1", dm);
      return { ...inbound, receivedAt: Number(inbound.payload.event_time) * 1000 + ageMs };
    };
    const handlers = { threadStarted: async () => {}, userMessage: async () => {} };
    const patient = new App().assistant({ ...handlers, maxEventAgeMs: 3 * HOUR });
    expect(runsOf(patient.plan(aged(2 * HOUR)))).toEqual(["run:assistant:userMessage"]);
    expect(runsOf(new App().assistant(handlers).plan(aged(2 * HOUR)))).toBe("late event");
  });

  it("commands and interactivity have no event time: planned a day later all the same, while an event a minute old is late", () => {
    const app = new App({ maxEventAgeMs: 1_000 }).command("/echo", async () => {}).message("ping", async () => {});
    const command = { ...inboundOf("command", "/echo", { text: "hi" }), receivedAt: Date.now() + 25 * HOUR };
    expect(runsOf(app.plan(command))).toEqual(["run:command:/echo"]);
    expect(runsOf(app.plan(pingAged(60_000)))).toBe("late event");
  });

  it("only an inbound the edge stamped (receivedAt) has an age: unstamped, the same day-old ping is planned", () => {
    const app = new App().message("ping", async () => {});
    const stamped = pingAged(25 * HOUR);
    const { receivedAt: _, ...unstamped } = stamped;
    expect(runsOf(app.plan(stamped))).toBe("late event");
    expect(runsOf(app.plan(unstamped))).toEqual(["run:message:ping"]);
  });

  it("the coordinator's own effects keep the app's late listeners named (withOwnEffects)", () => {
    const app = new App().message("ping", async () => {});
    const served = withOwnEffects(app, () => [{ name: "relay", effect: { type: "alert", text: "x" } as never }]);
    const plan = served.plan(pingAged(2 * HOUR));
    expect(runsOf(plan)).toEqual(["relay"]);
    expect(plan.late?.listeners).toEqual([{ listener: "message:ping", maxEventAgeMs: HOUR }]);
  });

  it.each([0, -1, Number.NaN, "1h"])("maxEventAgeMs %s is refused where it is given", (value) => {
    const bad = value as number;
    expect(() => new App({ maxEventAgeMs: bad })).toThrow(/new App\(\): maxEventAgeMs must be a positive number/);
    expect(() => new App().message("ping", { maxEventAgeMs: bad, run: async () => {} })).toThrow(
      /listener "message:ping": maxEventAgeMs must be a positive number/,
    );
  });
});
