import { describe, expect, it } from "vitest";
import { rerunDelivery, rerunKey, rerunOf, rerunRange } from "../../src/inbound/reruns";
import { inboundOf } from "../support/inboundOf";

// Issue 42, point 5: a re-run's key names its original, and its kept payload parses again as a delivery of its own.

describe("a re-run's key", () => {
  it("names the story it re-ran, the last one when a re-run is re-run; a delivery from Slack names none", () => {
    expect(rerunOf(rerunKey("Ev1", "k1"))).toBe("Ev1");
    expect(rerunOf(rerunKey(rerunKey("Ev1", "k1"), "k2"))).toBe("Ev1:rerun:k1");
    expect(rerunOf("fact:T1:C1:1.2:run:event:app_mention:rerun:k")).toBe("fact:T1:C1:1.2:run:event:app_mention");
    expect(rerunOf("Ev1")).toBeUndefined();
    expect(rerunOf("view_closed:V1")).toBeUndefined();
    const [from, to] = rerunRange("Ev1");
    for (const key of [rerunKey("Ev1", "a"), rerunKey("Ev1", "~"), rerunKey(rerunKey("Ev1", "a"), "b")])
      expect(key > from && key < to).toBe(true);
    for (const key of ["Ev1", "Ev1:run:x", "Ev12:rerun:a", rerunKey("Ev2", "a")]) expect(key > from && key < to).toBe(false);
  });
});

describe("a re-run's delivery, from the kept payload", () => {
  it("a command and an interaction parse again, under the new key, with no retry header", () => {
    const command = inboundOf(
      "command",
      "/echo",
      { text: "hi", response_url: "https://hooks.slack.com/commands/1" },
      { id: "13345.1" },
    );
    const again = rerunDelivery("command", command.payload, "13345.1", "k", false).inbound;
    expect(again).toMatchObject({ kind: "command", type: "/echo", dedupeKey: "13345.1:rerun:k", payload: command.payload });
    const click = inboundOf("interaction", "block_actions", { actions: [{ action_id: "go" }] }, { id: "777.1" });
    const clicked = rerunDelivery("interaction", { ...click.payload }, "777.1", "k", true);
    expect(clicked.inbound).toMatchObject({ kind: "interaction", type: "block_actions", dedupeKey: "777.1:rerun:k" });
    expect(clicked.raw.contentType).toBe("application/x-www-form-urlencoded");
    expect(() => rerunDelivery("event", "not an object", "Ev1", "k", false)).toThrow("not an object");
  });
});
