import { eventConversation } from "../../inbound/conversation";
import { isObject, optionalString } from "../../inbound/fields";
import type { Inbound } from "../../inbound/types";
import { HandlerMisuse } from "../../platform/errors";
import { log } from "../../platform/log";
import type { SlackWebClient } from "../../slack/client";
import type { AssistantThreadContext, RunTools } from "../contract";
import type { SayArguments } from "../listeners";
import { eventTimeOf } from "./threadContext";
import type { SetTitleOptions } from "./userTitles";

/** One suggested prompt: the title shown and the message sent when the user picks it. */
export interface AssistantPrompt {
  title: string;
  message: string;
}

/**
 * What an assistant handler adds to a run's arguments, with Bolt's names; bound to the delivery's
 * assistant thread. `setStatus` and `sayStream` are every run's (in the same thread, kept alive, checkpointed).
 */
export interface AssistantTools {
  /** `chat.postMessage` into the assistant thread (its channel and `thread_ts`). */
  say(message: string | SayArguments): Promise<{ ts: string; channel: string }>;
  /** `assistant.threads.setSuggestedPrompts`: up to four prompts, with an optional title over them. */
  setSuggestedPrompts(params: { prompts: AssistantPrompt[]; title?: string }): Promise<void>;
  /**
   * The thread's title in the user's history: `assistant.threads.setTitle` under the assistant view;
   * under the agent view (AGENT_SESSIONS) `agents.sessions.rename` of the thread's session, cut to
   * Slack's 200 characters. Skipped (a log line) when the thread's user chose its title
   * (`agent_session_title_changed`), unless `{ overwrite: true }`.
   */
  setTitle(title: string, options?: SetTitleOptions): Promise<void>;
  /** The thread's saved context (see saveThreadContext), else the one this event carries, else `{}`. */
  getThreadContext(): Promise<AssistantThreadContext>;
  /** Saves the context this event carries (or `context`) as the thread's, durably, in the shard that records the thread. */
  saveThreadContext(context?: AssistantThreadContext): Promise<void>;
}

/** What the agent view's own events (no thread yet: `app_home_opened` on the Messages tab, `app_context_changed`) get. */
export type AgentViewTools = Pick<AssistantTools, "say" | "setSuggestedPrompts">;

const asMessage = (message: string | SayArguments) => (typeof message === "string" ? { text: message } : { ...message });

/** Slack's most for a session's title (`agents.sessions.rename`: 1–200 characters). */
const SESSION_TITLE_MAX = 200;

/** A title cut to SESSION_TITLE_MAX UTF-16 units, never between a surrogate pair's halves (so at most as many code points too). */
function sessionTitle(title: string): string {
  if (title.length <= SESSION_TITLE_MAX) return title;
  const cut = title.slice(0, SESSION_TITLE_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function misuse(what: string, inbound: Inbound): never {
  throw new HandlerMisuse(`${what} needs an assistant thread, and this ${inbound.type} event has none`);
}

/**
 * The assistant tools of one run, where its event happened: its conversation (inbound/conversation.ts:
 * an assistant thread's `assistant_thread.channel_id` / `thread_ts`, or a message's `thread_ts ?? ts`,
 * which is how a user's message in an assistant thread names it: its `assistant_thread` holds only an
 * `action_token`), else its channel alone (the agent view's own events: `app_home_opened`,
 * `app_context_changed`), and the context Slack sent. A thread's context is read and saved in
 * `store` under its conversation, ordered by the event's time: saving again is harmless, so a
 * retried run may save twice, and an older event's retry never saves over a newer event's context.
 * A tool used where the event has no thread, or no channel (Slack's own `app_context_changed`
 * example), is HandlerMisuse, parked at once; the handler itself always runs. Under the agent
 * view (`tools.agentSessions`) the thread is an agent session, and its title is the session's.
 */
export function assistantTools(
  inbound: Inbound,
  event: Record<string, unknown>,
  client: SlackWebClient,
  tools: Pick<RunTools, "threadContexts" | "agentSessions"> = {},
): AssistantTools {
  const store = tools.threadContexts;
  const thread = isObject(event.assistant_thread) ? event.assistant_thread : {};
  // From the event, as parsing does, not read from inbound.conversation: a delivery recorded before
  // a conversation carried its team has none there, and the saved contexts are kept per team.
  const conversation = eventConversation(inbound.teamId ?? inbound.workspace, event);
  const channel = conversation?.channel ?? optionalString(event.channel) ?? optionalString(thread.channel_id);
  const sent = channel && isObject(thread.context) ? (thread.context as AssistantThreadContext) : undefined;
  const dmChannel = (what: string): string => {
    if (channel) return channel;
    throw new HandlerMisuse(`${what} needs the app's DM channel, and this ${inbound.type} event names none`);
  };
  const threadTs = conversation?.threadTs;
  const api = (tool: string, method: string, body: Record<string, unknown>) =>
    client.call(method, { channel_id: dmChannel(tool), ...body });
  return {
    say: async (message) =>
      client.call<{ ts: string; channel: string }>("chat.postMessage", {
        ...asMessage(message),
        channel: dmChannel("say()"),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
      }),
    // The agent view sets prompts on the conversation itself: with a thread_ts Slack drops the call silently.
    setSuggestedPrompts: async ({ prompts, title }) => {
      await api("setSuggestedPrompts()", "assistant.threads.setSuggestedPrompts", {
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        prompts,
        ...(title === undefined ? {} : { title }),
      });
    },
    setTitle: async (title, options = {}) => {
      if (threadTs === undefined) misuse("setTitle()", inbound);
      // The user renamed the session: their title stands unless the app says otherwise.
      if (!options.overwrite && conversation && store?.userTitle?.(conversation) !== undefined) {
        log("info", "setTitle skipped: the user chose this thread's title", { workspace: inbound.workspace, channel, threadTs });
        return;
      }
      // The agent view's thread is a session: Slack's assistant.threads.setTitle is the older view's.
      if (tools.agentSessions)
        await api("setTitle()", "agents.sessions.rename", { thread_ts: threadTs, title: sessionTitle(title) });
      else await api("setTitle()", "assistant.threads.setTitle", { thread_ts: threadTs, title });
    },
    getThreadContext: async () => (conversation && store?.get(conversation)) ?? sent ?? {},
    saveThreadContext: async (context = sent) => {
      if (!conversation) misuse("saveThreadContext()", inbound);
      if (!store) throw new HandlerMisuse("saveThreadContext() needs the shard's store, and this run was given none");
      if (!context)
        throw new HandlerMisuse(
          `saveThreadContext() has nothing to save: this ${inbound.type} event carries no context; pass one`,
        );
      const now = Date.now();
      store.save(conversation, context, { workspace: inbound.workspace, eventAt: eventTimeOf(inbound, now), savedAt: now });
    },
  };
}
