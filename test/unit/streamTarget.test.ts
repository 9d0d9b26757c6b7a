import { describe, expect, it } from "vitest";
import { sayStreamDefaults } from "../../src/app/streams/runStreams";
import { channelOf } from "../../src/inbound/channelOf";
import type { Inbound } from "../../src/inbound/types";
import { inboundOf as delivery } from "../support/inboundOf";

const targetOf = (inbound: Inbound) => sayStreamDefaults(inbound, channelOf(inbound));

describe("where sayStream() streams by default", () => {
  it("a mention in a thread: that thread, for the user who asked and their team", () => {
    const event = { type: "app_mention", channel: "C1", ts: "2.2", thread_ts: "1.1", user: "U1", team: "T2" };
    expect(targetOf(delivery("event", "app_mention", { event }))).toEqual({
      channel: "C1",
      thread_ts: "1.1",
      recipient_user_id: "U1",
      recipient_team_id: "T2",
    });
  });

  it("a top-level DM message: a thread under it", () => {
    const event = { type: "message", channel: "D1", ts: "3.3", user: "U1" };
    expect(targetOf(delivery("event", "message", { event }))).toMatchObject({
      channel: "D1",
      thread_ts: "3.3",
      recipient_team_id: "T1",
    });
  });

  it("an assistant thread: its channel, thread and user", () => {
    const event = { type: "assistant_thread_started", assistant_thread: { channel_id: "D9", thread_ts: "4.4", user_id: "U9" } };
    expect(targetOf(delivery("event", "assistant_thread_started", { event }))).toMatchObject({
      channel: "D9",
      thread_ts: "4.4",
      recipient_user_id: "U9",
    });
  });

  it("a user's message in an assistant thread, its assistant_thread holding only an action_token: its own channel and thread", () => {
    const event = {
      type: "message",
      channel: "D9",
      channel_type: "im",
      ts: "4.5",
      thread_ts: "4.4",
      user: "U9",
      assistant_thread: { action_token: "1.2.abc" },
    };
    expect(targetOf(delivery("event", "message", { event }))).toEqual({
      channel: "D9",
      thread_ts: "4.4",
      recipient_user_id: "U9",
      recipient_team_id: "T1",
    });
  });

  it("a button in a message: that message's thread, for whoever clicked", () => {
    const payload = {
      type: "block_actions",
      channel: { id: "C1" },
      message: { ts: "5.5", thread_ts: "1.1" },
      user: { id: "U2", team_id: "T3" },
    };
    expect(targetOf(delivery("interaction", "block_actions", payload))).toEqual({
      channel: "C1",
      thread_ts: "1.1",
      recipient_user_id: "U2",
      recipient_team_id: "T3",
    });
  });
});
