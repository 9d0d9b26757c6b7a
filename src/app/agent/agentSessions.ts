import { stoppedStreams } from "../../inbound/stoppedStreams";
import type { Conversation, Inbound } from "../../inbound/types";
import type { PlannedEffect, RunEffect } from "../contract";

/** The conversation of an agent's run: a user's message (`message`, `app_mention`) in a thread or starting one. */
export function agentConversationOf(inbound: Inbound): Conversation | undefined {
  if (inbound.type !== "message" && inbound.type !== "app_mention") return undefined;
  return inbound.conversation;
}

const sessionActive = (channel: string, threadTs: string): PlannedEffect["effect"] => ({
  type: "slack.api",
  method: "agents.sessions.setStatus",
  body: { channel_id: channel, thread_ts: threadTs, status: "active" },
});

/**
 * The coordinator's own plan for the stop button (`agent_session_stopped`), beside the app's:
 * each stream it names is closed (`chat.stopStream`; one Slack no longer streams counts as already
 * done), the session leaves `processing` and the thread's status is cleared. The runs it stops are parked by the
 * shard that records it (parts/stops/runStops.ts).
 */
export function stopEffects(inbound: Inbound): PlannedEffect[] {
  if (inbound.type !== "agent_session_stopped" || !inbound.conversation) return [];
  const { channel, threadTs } = inbound.conversation;
  return [
    ...stoppedStreams(inbound).map(
      (ts): PlannedEffect => ({
        name: `stop:stream:${ts}`,
        effect: {
          type: "slack.api",
          method: "chat.stopStream",
          body: { channel, ts },
          alreadyDone: ["message_not_in_streaming_state"],
        },
      }),
    ),
    { name: "stop:session", effect: sessionActive(channel, threadTs) },
    { name: "stop:status", effect: statusCleared(channel, threadTs) },
  ];
}

/**
 * A stopped run's `setStatus` is cleared (its own clearing, when it returns, is refused once it is
 * stopped); an app without the scope to set a status has none to clear.
 */
const statusCleared = (channel: string, threadTs: string): PlannedEffect["effect"] => ({
  type: "slack.api",
  method: "assistant.threads.setStatus",
  body: { channel_id: channel, thread_ts: threadTs, status: "" },
  alreadyDone: ["missing_scope"],
});

/**
 * What an agent conversation's run finally parked plans for its session (a park follow-up): it
 * leaves `processing` (a stopped run's stop did that itself). The user is told by the run's failure
 * notice (runNotices.ts).
 */
export function parkedSession(effect: RunEffect): PlannedEffect[] {
  const conversation = agentConversationOf(effect.inbound);
  if (!conversation) return [];
  return [{ name: "parked:session", effect: sessionActive(conversation.channel, conversation.threadTs) }];
}
