import { describe, expect, it } from "vitest";
import { App } from "../../src/app/App";
import { channelMessage } from "../../src/testing/deliveries";
import { eventDelivery } from "../support/inboundOf";

// Bolt's ignoreSelf (issue 31): the app's own messages reach no listener unless the app says
// ignoreSelf: false, and then only listeners that ask for bots' messages — no loop by default.

const BOT = "U0000BOT"; // the bot user in every simulated envelope's `authorizations`
const own = () => eventDelivery("T1", channelMessage({ user: BOT, text: "posted by the modal" }));

/** The listeners that would run for `inbound`, by name; or why it is ignored. */
function runs(app: App, inbound = own()): string[] | string {
  const plan = app.plan(inbound);
  if ("ignore" in plan) return plan.ignore;
  return plan.effects.flatMap(({ effect }) => (effect.type === "run" ? [effect.listener] : []));
}

const listening = (app: App) =>
  app.message({ name: "people only", run: async () => {} }).message({ name: "bots too", includeBots: true, run: async () => {} });

describe("ignoreSelf", () => {
  it("by default (true, as Bolt) the app's own message reaches no listener", () => {
    expect(runs(listening(new App()))).toBe("this app's own message");
  });

  it("false: it reaches the listeners that take bots' messages, and only them", () => {
    expect(runs(listening(new App({ ignoreSelf: false })))).toEqual(["bots too"]);
  });

  it("someone else's message reaches the people's listener either way", () => {
    const person = eventDelivery("T1", channelMessage({ user: "U0PERSON", text: "hi" }));
    expect(runs(listening(new App({ ignoreSelf: false })), person)).toEqual(["people only", "bots too"]);
  });
});
