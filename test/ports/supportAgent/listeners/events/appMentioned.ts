// listeners/events/app-mentioned.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported.
import type { AppMentionEvent, EventArgs, RunArgs } from "../../../../../src/lib";
import { type AgentInputItem, CaseyDeps, runCasey } from "../../agent";
import { conversationStore } from "../../thread-context";
import { buildFeedbackBlocks } from "../views/feedbackBuilder";

/** Handle app_mention events and run the Casey agent. */
export async function handleAppMentioned({
  client,
  context,
  event,
  logger,
  say,
  sayStream,
  setStatus,
}: RunArgs<EventArgs<AppMentionEvent>>): Promise<void> {
  try {
    const channelId = event.channel;
    const text = event.text || "";
    const threadTs = event.thread_ts || event.ts;
    // The sample's own cast (JSDoc `@type {string}` in the original).
    const userId = context.userId as string;

    // Strip the bot mention from the text
    const cleanedText = text.replace(/<@[A-Z0-9]+>/g, "").trim();

    if (!cleanedText) {
      await say({
        text: "Hey there! How can I help you? Describe your IT issue and I'll do my best to assist.",
        thread_ts: threadTs,
      });
      return;
    }

    // Add eyes reaction only to the first message (not threaded replies)
    if (!event.thread_ts) {
      await client.reactions.add({
        channel: channelId,
        timestamp: event.ts,
        name: "eyes",
      });
    }

    // Set assistant thread status with loading messages
    await setStatus({
      status: "Thinking…",
      loading_messages: [
        "Teaching the hamsters to type faster…",
        "Untangling the internet cables…",
        "Consulting the office goldfish…",
        "Polishing up the response just for you…",
        "Convincing the AI to stop overthinking…",
      ],
    });

    // Get conversation history
    const history = conversationStore.getHistory(channelId, threadTs);
    const inputItems: string | AgentInputItem[] = history ? [...history, { role: "user", content: cleanedText }] : cleanedText;

    // Run the agent
    const deps = new CaseyDeps(client, userId, channelId, threadTs, event.ts, context.userToken);
    const result = await runCasey(inputItems, deps);

    // Stream response in thread with feedback buttons
    const streamer = sayStream();
    await streamer.append({ markdown_text: result.finalOutput });
    const feedbackBlocks = buildFeedbackBlocks();
    await streamer.stop({ blocks: feedbackBlocks });

    // Store conversation history
    conversationStore.setHistory(channelId, threadTs, result.history);
  } catch (e) {
    logger.error(`Failed to handle app mention: ${e}`);
    await say({
      text: `:warning: Something went wrong! (${e})`,
      thread_ts: event.thread_ts || event.ts,
    });
  }
}
