// listeners/events/message.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
// The model call is the port's: `runAgent` returns the AI SDK's stream, piped into the reply where
// the sample appends the finished `result.finalOutput`; the run's durable tools go to the agent.
import type { GenericMessageEvent, MessageEvent } from "@slack/types";
import type { EventArgs, RunArgs } from "../../../../../src/lib";
import { AgentDeps, type AgentInputItem, runAgent } from "../../agent";
import { conversationStore } from "../../thread-context";
import { buildFeedbackBlocks } from "../views/feedbackBuilder";

function isGenericMessageEvent(event: MessageEvent): event is GenericMessageEvent {
  return !("subtype" in event && event.subtype !== undefined);
}

/** Handle messages sent to the agent via DM or in threads the bot is part of. */
export async function handleMessage({
  client,
  context,
  event,
  logger,
  say,
  sayStream,
  setStatus,
  signal,
  step,
  waitForAction,
}: RunArgs<EventArgs<GenericMessageEvent>>): Promise<void> {
  // Skip message subtypes (edits, deletes, etc.)
  if (!isGenericMessageEvent(event)) return;

  // Skip bot messages
  if (event.bot_id) return;

  const isDm = event.channel_type === "im";
  const isThreadReply = !!event.thread_ts;

  if (isDm) {
    // DMs are always handled
  } else if (isThreadReply) {
    // Channel thread replies are handled only if the bot is already engaged
    // The sample's own cast (JSDoc `@type {string}`): `isThreadReply` says thread_ts is there.
    const history = conversationStore.getHistory(event.channel, event.thread_ts as string);
    if (history === null) return;
  } else {
    // Top-level channel messages are handled by app_mentioned
    return;
  }

  try {
    const channelId = event.channel;
    const text = event.text || "";
    const threadTs = event.thread_ts || event.ts;
    // The sample's own cast (JSDoc `@type {string}` in the original).
    const userId = context.userId as string;

    // Get conversation history
    const history = conversationStore.getHistory(channelId, threadTs);

    // Set assistant thread status with loading messages
    await setStatus({
      status: "Thinking\u2026",
      loading_messages: [
        "Teaching the hamsters to type faster\u2026",
        "Untangling the internet cables\u2026",
        "Consulting the office goldfish\u2026",
        "Polishing up the response just for you\u2026",
        "Convincing the AI to stop overthinking\u2026",
      ],
    });

    // Build input for the agent
    const inputItems: string | AgentInputItem[] = history ? [...history, { role: "user", content: text }] : text;

    // Run the agent
    const deps = new AgentDeps(client, userId, channelId, threadTs, event.ts, context.userToken, { signal, step, waitForAction });
    const result = runAgent(inputItems, deps);

    // Stream response in thread with feedback buttons
    const streamer = sayStream();
    await streamer.pipe(result);
    const feedbackBlocks = buildFeedbackBlocks();
    await streamer.stop({ blocks: feedbackBlocks });

    // Store conversation history
    conversationStore.setHistory(channelId, threadTs, await result.history);
  } catch (e) {
    logger.error(`Failed to handle message: ${e}`);
    await say({
      text: `:warning: Something went wrong! (${e})`,
      thread_ts: event.thread_ts || event.ts,
    });
  }
}
