import { describe, expect, it } from "vitest";
import { channelMessage, eventCallback, signedEvent, slackId } from "../../src/testing/deliveries";
import { controlClock } from "../support/clock";
import { adminGet, deliver, newWorkspace, signedBy } from "../support/coordinator";
import { useFakeSlack } from "../support/useFakeSlack";

// Issue 41, point 4b, driven through the Worker: signed HTTP to /slack/events, the test app's
// "budget " listener (`limits: { turnsPerUser: { perMinute: 2 } }`), the fake Slack answering.

const slack = useFakeSlack();
const USER = "U0000BUDGET";
const OTHER = "U0000OTHERS";
const MINUTE_MS = 60_000;

/** A channel of its own, and a way to send a user's message there through the Worker (or Slack's retry of one). */
function budgetChannel() {
  const team = newWorkspace();
  const channel = slackId("C");
  const send = async (text: string, user = USER, retry?: { eventId: string; ts: string }) => {
    const event = channelMessage({ text, channel, user, ts: retry?.ts });
    const envelope = eventCallback(event, { teamId: team, eventId: retry?.eventId });
    const response = await deliver(await signedEvent(envelope, signedBy(retry ? { retryNum: 1 } : {})));
    expect(response.status).toBe(200);
    return { eventId: envelope.event_id as string, ts: event.ts as string };
  };
  const replies = () =>
    slack()
      .callsTo("chat.postMessage")
      .filter((call) => call.body.channel === channel)
      .map((call) => call.body.text);
  const refusals = () =>
    slack()
      .callsTo("chat.postEphemeral")
      .filter((call) => call.body.channel === channel)
      .map((call) => ({ user: call.body.user, text: String(call.body.text) }));
  return { team, send, replies, refusals };
}

describe("turn budgets through the Worker", () => {
  it("a user's 3rd message in a minute is refused with an ephemeral, Slack's retry of it is not counted again, another user runs, and the next minute runs again", async () => {
    const clock = controlClock();
    clock.advance(MINUTE_MS - (clock.now() % MINUTE_MS) + 1_000); // early in a minute: the messages share it
    const { team, send, replies, refusals } = budgetChannel();

    await send("budget one");
    await send("budget two");
    await slack().waitFor("chat.postMessage", (call) => call.body.text === "budgeted: budget two");
    const third = await send("budget three");
    await slack().waitFor("chat.postEphemeral", (call) => call.body.user === USER);
    await send("budget three", USER, third); // Slack's retry of the refused one: a duplicate, no second refusal
    await send("budget theirs", OTHER);
    await slack().waitFor("chat.postMessage", (call) => call.body.text === "budgeted: budget theirs");

    expect(replies().sort()).toEqual(["budgeted: budget one", "budgeted: budget theirs", "budgeted: budget two"]);
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ user: USER });
    expect(refusals()[0]!.text).toContain("limit of 2 messages a minute");
    const shard = (await (await adminGet(`/admin/shards/${team}/0`)).json()) as { counters: { turnsRefused: number } };
    expect(shard.counters.turnsRefused).toBe(1);

    clock.advance(MINUTE_MS);
    await send("budget four");
    await slack().waitFor("chat.postMessage", (call) => call.body.text === "budgeted: budget four");
    expect(replies()).toContain("budgeted: budget four");
    expect(refusals()).toHaveLength(1);
  }, 30_000);
});
