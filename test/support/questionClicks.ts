import type { Inbound } from "../../src/inbound/types";
import { slackId } from "../../src/testing/deliveries";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import { type ButtonChoice, clickPayload } from "../../src/testing/questionClicks";
import { inboundOf } from "./inboundOf";

/**
 * A person's click on a button of the newest question the app posted (the kit's `question()` and
 * click payload), as the shard ingests it: for tests that drive a shard directly rather than
 * through signed requests (`SlackSimulator.click`). A fresh trigger_id each time.
 */
export async function clickOn(slack: FakeSlack, team: string, choice: ButtonChoice, user?: string): Promise<Inbound> {
  const question = await slack.question();
  const { type, ...payload } = clickPayload(question, choice, team, { user });
  return inboundOf("interaction", String(type), payload, { team, id: slackId("13345224609.") });
}

/** The texts of every `chat.postMessage`: a wait's question and what its run said after. */
export const postedTexts = (slack: FakeSlack) => slack.callsTo("chat.postMessage").map((call) => call.body.text);

/** Every ephemeral the clicks earned: to whom, what. */
export const ephemeralsOf = (slack: FakeSlack) =>
  slack.callsTo("chat.postEphemeral").map((call) => ({ user: call.body.user, text: call.body.text }));
