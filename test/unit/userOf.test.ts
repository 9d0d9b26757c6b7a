import { describe, expect, it } from "vitest";
import { userOf } from "../../src/inbound/userOf";
import { inboundOf as delivery } from "../support/inboundOf";

const event = (type: string, fields: Record<string, unknown>) => delivery("event", type, { event: { type, ...fields } });

describe("the user a delivery comes from (whose stop stops its run)", () => {
  it("a message, a mention, the stop button: the event's user", () => {
    expect(userOf(event("message", { user: "U1", channel: "C1", ts: "1.1" }))).toBe("U1");
    expect(userOf(event("app_mention", { user: "U2", channel: "C1", ts: "1.1" }))).toBe("U2");
    const stop = { user: "U3", channel: "C1", thread_ts: "1.1", streaming_message_ts: [], event_ts: "2.2" };
    expect(userOf(event("agent_session_stopped", stop))).toBe("U3");
  });

  it("an edited message: its author; an assistant thread's event: the thread's user", () => {
    expect(userOf(event("message", { subtype: "message_changed", message: { user: "U4", ts: "1.1" } }))).toBe("U4");
    const thread = { user_id: "U5", channel_id: "D1", thread_ts: "1.1", context: {} };
    expect(userOf(event("assistant_thread_context_changed", { assistant_thread: thread }))).toBe("U5");
  });

  it("an interaction's user.id, a command's user_id; none when the delivery names no user", () => {
    expect(userOf(delivery("interaction", "block_actions", { user: { id: "U6", team_id: "T1" } }))).toBe("U6");
    expect(userOf(delivery("command", "/ask", { user_id: "U7", command: "/ask" }))).toBe("U7");
    expect(userOf(event("message", { bot_id: "B1", channel: "C1", ts: "1.1" }))).toBeUndefined();
  });
});
