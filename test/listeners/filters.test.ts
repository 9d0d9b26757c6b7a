import { describe, expect, it } from "vitest";
import { channelMessage, eventCallback, signedEvent } from "../../src/testing/deliveries";
import { deliver, newWorkspace, signedBy, storedFor } from "../support/coordinator";
import { namedPost } from "../support/namedPost";
import { useFakeSlack } from "../support/useFakeSlack";

const slack = useFakeSlack();
const BOT = "U0000BOT"; // the bot user in every simulated envelope's `authorizations`

describe("built-in filtering of the app's own messages", () => {
  it("the app's own message never reaches a listener", async () => {
    const team = newWorkspace();
    const own = eventCallback(channelMessage({ user: BOT, text: "ping" }), { teamId: team, botUserId: BOT });
    expect((await deliver(await signedEvent(own, signedBy()))).status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("an edit of the app's own message (message_changed) is filtered too", async () => {
    const team = newWorkspace();
    const edit = { ...channelMessage({ subtype: "message_changed", text: "ping" }), message: { user: BOT, text: "ping" } };
    expect((await deliver(await signedEvent(eventCallback(edit, { teamId: team }), signedBy()))).status).toBe(200);
    expect(await storedFor(team)).toEqual({ receipts: 0, outbox: { pending: 0, parked: 0, stopped: 0 } });
  });

  it("other events about the bot user are not its messages: the bot joining a channel reaches its listener", async () => {
    const team = newWorkspace();
    const joined = eventCallback(
      { type: "member_joined_channel", user: BOT, channel: "C0000NEW", channel_type: "C", event_ts: "1.1" },
      { teamId: team },
    );
    expect((await deliver(await signedEvent(joined, signedBy()))).status).toBe(200);
    const welcome = await slack().waitForCall((call) => call.method === "chat.postMessage");
    expect(welcome.body).toEqual({ channel: "C0000NEW", text: `welcome <@${BOT}>`, metadata: namedPost() });
  });

  it("someone else's message is answered", async () => {
    const team = newWorkspace();
    const ping = eventCallback(channelMessage({ user: "U0000USER", text: "ping" }), { teamId: team });
    expect((await deliver(await signedEvent(ping, signedBy()))).status).toBe(200);
    expect((await slack().waitForCall((call) => call.method === "chat.postMessage")).body).toMatchObject({ text: "pong" });
  });
});
