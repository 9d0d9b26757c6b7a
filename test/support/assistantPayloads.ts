import { messageTs, slackId } from "../../src/testing/deliveries";

// The events of Slack's assistant and agent surfaces, shaped as Slack documents and sends them
// (docs.slack.dev: the events assistant_thread_started, assistant_thread_context_changed,
// message.im, app_home_opened, app_context_changed, agent_session_stopped, the message subtype
// assistant_app_thread; real message.im deliveries in an assistant thread). Only ids vary.

export const USER = "U0000USER";
export const BOT_USER = "U0000BOT";

/** The app's DM with one user, where assistant threads live: a fresh `D…` channel and a thread root in it. */
export function dmThread(): { channel: string; threadTs: string } {
  return { channel: `D${crypto.randomUUID().slice(0, 8).toUpperCase()}`, threadTs: messageTs() };
}

/** What the user is viewing beside the thread, as `assistant_thread.context` names it. */
export const viewing = (channel: string, team: string) => ({ channel_id: channel, team_id: team, enterprise_id: null });

const assistantThread = (thread: { channel: string; threadTs: string }, context: Record<string, unknown>) => ({
  user_id: USER,
  context,
  channel_id: thread.channel,
  thread_ts: thread.threadTs,
});

/** `assistant_thread_started`: the user opened a thread with the app (assistant view). */
export const assistantThreadStarted = (thread: { channel: string; threadTs: string }, context: Record<string, unknown> = {}) => ({
  type: "assistant_thread_started",
  assistant_thread: assistantThread(thread, context),
  event_ts: messageTs(),
});

/** `assistant_thread_context_changed`: the user moved to another channel while the thread is open. */
export const assistantThreadContextChanged = (
  thread: { channel: string; threadTs: string },
  context: Record<string, unknown>,
) => ({
  type: "assistant_thread_context_changed",
  assistant_thread: assistantThread(thread, context),
  event_ts: messageTs(),
});

/**
 * A user's `message.im` in an assistant thread. Slack names the thread by the message's own
 * `channel` and `thread_ts`; its `assistant_thread` carries only an `action_token` (sent unless
 * `actionToken` is false, as an older delivery or a thread the user opened by hand).
 */
export function assistantThreadMessage(thread: { channel: string; threadTs: string }, text: string, actionToken = true) {
  const ts = messageTs();
  return {
    type: "message",
    user: USER,
    client_msg_id: crypto.randomUUID(),
    text,
    blocks: [
      { type: "rich_text", block_id: "b1", elements: [{ type: "rich_text_section", elements: [{ type: "text", text }] }] },
    ],
    ts,
    thread_ts: thread.threadTs,
    parent_user_id: BOT_USER,
    channel: thread.channel,
    event_ts: ts,
    channel_type: "im",
    ...(actionToken
      ? { assistant_thread: { action_token: `${slackId("")}.${slackId("")}.${crypto.randomUUID().replaceAll("-", "")}` } }
      : {}),
  };
}

/** A user's file shared in an assistant thread: a `message.im` of subtype `file_share`, with its text and files. */
export function assistantThreadFileShare(thread: { channel: string; threadTs: string }, text: string) {
  const file = { id: "F0000FILE", name: "notes.txt", mimetype: "text/plain", filetype: "text", user: USER, size: 12 };
  return { ...assistantThreadMessage(thread, text), subtype: "file_share", files: [file], upload: false, display_as_bot: false };
}

/** A user's top-level `message.im` (no `thread_ts`): under the agent view it is the root of its own thread. */
export function dmRootMessage(channel: string, text: string) {
  const ts = messageTs();
  return { type: "message", user: USER, client_msg_id: crypto.randomUUID(), text, ts, channel, event_ts: ts, channel_type: "im" };
}

/** `app_home_opened`: the user opened the app's `messages` tab (the agent view's DM) or its `home` tab. */
export const appHomeOpened = (channel: string, tab: "messages" | "home") => ({
  type: "app_home_opened",
  user: USER,
  channel,
  tab,
  event_ts: messageTs(),
  ...(tab === "home" ? { view: { id: "V0000HOME", type: "home" } } : {}),
});

/** `app_context_changed` exactly as Slack's reference shows it: what the user views now, and nothing else. */
export const appContextChangedAsDocumented = (viewed: string, team: string) => ({
  type: "app_context_changed",
  context: { entities: [{ type: "slack#/types/channel_id", value: viewed, team_id: team }] },
});

/** `app_context_changed` as @slack/types declares it: with the user and their DM with the app. */
export const appContextChanged = (channel: string, viewed: string, team: string) => ({
  ...appContextChangedAsDocumented(viewed, team),
  user: USER,
  channel,
  event_ts: messageTs(),
});

/** `agent_session_stopped`: the user clicked the stop button; `streaming_message_ts` lists the streams Slack stopped. */
export const agentSessionStopped = (thread: { channel: string; threadTs: string }, streams: string[] = []) => ({
  type: "agent_session_stopped",
  channel: thread.channel,
  thread_ts: thread.threadTs,
  user: USER,
  streaming_message_ts: streams,
  event_ts: messageTs(),
});

/** The `message_changed` Slack sends when it titles an assistant thread's root (subtype `assistant_app_thread`). */
export function assistantAppThreadTitled(thread: { channel: string; threadTs: string }) {
  const ts = messageTs();
  const root = {
    text: "Chats from 2026-12-01",
    subtype: "assistant_app_thread",
    user: USER,
    type: "message",
    ts: thread.threadTs,
    thread_ts: thread.threadTs,
    assistant_app_thread: { title: "Chats from 2026-12-01", title_blocks: [], artifacts: [] },
  };
  return {
    type: "message",
    subtype: "message_changed",
    message: { ...root, edited: { user: USER, ts } },
    previous_message: root,
    channel: thread.channel,
    hidden: true,
    ts,
    event_ts: ts,
    channel_type: "im",
  };
}

/**
 * `agent_session_title_changed` exactly as Slack's events reference shows it
 * (docs.slack.dev/reference/events/agent_session_title_changed): a user renamed an agent session;
 * `previous_title` is left out when the session had no title, `enterprise_id` added for org installs.
 */
export const SESSION_TITLE_CHANGED_AS_DOCUMENTED = {
  channel: "C0123ABC456",
  event_ts: "1783536983.783769",
  previous_title: "Scuba diving research",
  team_id: "T0123ABC456",
  thread_ts: "1782234671.392669",
  title: "Bora Bora trip prep",
  type: "agent_session_title_changed",
  user: "U123ABC456",
} as const;
