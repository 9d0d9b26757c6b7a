import type { Inbound } from "../../src/inbound/types";
import { messageTs, slackId } from "../../src/testing/deliveries";
import type { FakeSlack } from "../../src/testing/fakeSlack";
import { inboundOf } from "./inboundOf";

/** A durable wait's question as posted (the first post of the test that carries buttons): its message and its buttons' block_id. */
export function askedIn(slack: FakeSlack) {
  const call = slack.callsTo("chat.postMessage").find((c) => Array.isArray(c.body.blocks));
  if (!call) throw new Error("no question was posted");
  const blocks = call.body.blocks as Array<{ type: string; block_id?: string }>;
  const channel = String(call.body.channel);
  const [message] = slack.messagesIn(channel, String(call.body.thread_ts));
  return {
    channel,
    ts: message!.ts,
    threadTs: String(call.body.thread_ts),
    blockId: blocks.find((b) => b.type === "actions")!.block_id!,
  };
}

/** A person's click on one of the question's buttons, as Slack sends it (a fresh trigger_id each time). */
export function clickOn(
  team: string,
  on: ReturnType<typeof askedIn>,
  actionId: string,
  value: string,
  user = "U0000USER",
): Inbound {
  return inboundOf(
    "interaction",
    "block_actions",
    {
      user: { id: user, team_id: team },
      container: { type: "message", message_ts: on.ts, channel_id: on.channel, thread_ts: on.threadTs },
      channel: { id: on.channel },
      message: { type: "message", ts: on.ts, thread_ts: on.threadTs, text: "a question" },
      actions: [{ type: "button", action_id: actionId, block_id: on.blockId, value, action_ts: messageTs() }],
    },
    { team, id: slackId("13345224609.") },
  );
}
