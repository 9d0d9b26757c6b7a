import { describe, expect, it } from "vitest";
import { SEARCH_METHOD } from "../../src/app/search";
import { channelMessage, eventCallback, messageTs, signedEvent } from "../../src/testing/deliveries";
import { deliver, newWorkspace, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

/**
 * search() through the Worker (test/worker.ts, testApp's "look up Q"): a signed message carrying an
 * action_token reaches a run whose search the fake Slack answers from the messages it holds.
 */

const slack = useFakeSlack();

async function lookUp(team: string, channel: string, event: Record<string, unknown>) {
  const response = await deliver(await signedEvent(eventCallback(event, { teamId: team }), signedBy()));
  expect(response.status).toBe(200);
  return (await slack().waitFor("chat.postMessage", (call) => call.body.channel === channel)).body.text;
}

describe("search() through the Worker", () => {
  it("a person's message with an action_token: the run searches with it and says the fake's matching message", async () => {
    slack().postAs({ user: "U0OTHER" }, "C0PROJECTS", { text: "Gizmo ships on Friday" });
    const channel = "C0LOOKUP1";
    const event = { ...channelMessage({ text: "look up gizmo", ts: messageTs(), channel }), action_token: "9.9.token" };
    expect(await lookUp(newWorkspace(), channel, event)).toBe("found: Gizmo ships on Friday");
    expect(
      slack()
        .callsTo(SEARCH_METHOD)
        .map((call) => call.body),
    ).toEqual([{ query: "gizmo", action_token: "9.9.token" }]);
  });

  it("a message without one: the run is told no_action_token, and Slack is not asked", async () => {
    const channel = "C0LOOKUP2";
    const event = channelMessage({ text: "look up gizmo", ts: messageTs(), channel });
    expect(await lookUp(newWorkspace(), channel, event)).toBe("refused: no_action_token");
    expect(slack().callsTo(SEARCH_METHOD)).toEqual([]);
  });
});
