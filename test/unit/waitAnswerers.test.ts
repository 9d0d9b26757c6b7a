import { describe, expect, it } from "vitest";
import { waitNotYoursText } from "../../src/app/waits";
import { waitAnswerersOf } from "../../src/app/waits/waitAnswerers";
import { HandlerMisuse } from "../../src/platform/errors";
import { channelMessage } from "../../src/testing/deliveries";
import { eventDelivery, inboundOf } from "../support/inboundOf";

describe("who may answer a durable wait (`from`)", () => {
  const byUser = eventDelivery("T1", channelMessage({ user: "U0ASKER" }));

  it("the asker by default, these users, or anyone (null)", () => {
    expect(waitAnswerersOf("w", undefined, byUser)).toEqual(["U0ASKER"]);
    expect(waitAnswerersOf("w", "asker", byUser)).toEqual(["U0ASKER"]);
    expect(waitAnswerersOf("w", ["U1", "U2"], byUser)).toEqual(["U1", "U2"]);
    expect(waitAnswerersOf("w", "anyone", byUser)).toBeNull();
    // A command's and a click's user is the asker too.
    expect(waitAnswerersOf("w", "asker", inboundOf("command", "/ask", { user_id: "U0CMD" }))).toEqual(["U0CMD"]);
  });

  it("refuses an asker where the delivery names no user, and an empty list", () => {
    const { user: _user, ...byApp } = channelMessage({ botId: "B0OTHER" });
    expect(() => waitAnswerersOf("w", "asker", eventDelivery("T1", byApp))).toThrow(HandlerMisuse);
    expect(() => waitAnswerersOf("w", [], byUser)).toThrow(/non-empty list of user ids/);
  });

  it("tells a refused click whose question it is, naming at most five", () => {
    expect(waitNotYoursText(["U1"])).toBe("This question is for <@U1>.");
    expect(waitNotYoursText(["U1", "U2", "U3"])).toBe("This question is for <@U1>, <@U2> or <@U3>.");
    expect(waitNotYoursText(["U1", "U2", "U3", "U4", "U5", "U6", "U7"])).toBe(
      "This question is for <@U1>, <@U2>, <@U3>, <@U4>, <@U5> or 2 others.",
    );
  });
});
