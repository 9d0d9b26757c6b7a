import { channelOf } from "../../inbound/channelOf";
import { eventOf } from "../../inbound/eventOf";
import type { Inbound } from "../../inbound/types";
import type { PlannedEffect, RunEffect } from "../contract";
import { agentConversationOf } from "./agentSessions";

/**
 * Whether a run is an agent's, whose failures its user is told by default: a run of an assistant
 * thread's events or of a user's message in the app's DM (where Slack's agents and `app.assistant`
 * talk), and with agent sessions (AGENT_SESSIONS) every run of a user's message (`message`, `app_mention`).
 */
export function isAgentRun(inbound: Inbound, agentSessions: boolean): boolean {
  if (agentSessions && agentConversationOf(inbound)) return true;
  const event = eventOf(inbound);
  return event?.assistant_thread !== undefined || (event?.type === "message" && event.channel_type === "im");
}

/**
 * A notice to the user of a failing run (its answer delayed, or given up): `text` posted as `name`
 * in the run's thread, else in its channel, where its `say` would answer. None when `text` is empty
 * or the delivery has no channel.
 */
export function runNotice(effect: RunEffect, name: string, text: string): PlannedEffect[] {
  const { conversation } = effect.inbound;
  const channel = conversation?.channel ?? channelOf(effect.inbound);
  if (text === "" || !channel) return [];
  const body = conversation ? { channel, thread_ts: conversation.threadTs, text } : { channel, text };
  return [{ name, effect: { type: "slack.api", method: "chat.postMessage", body } }];
}
