// listeners/events/app-mentioned.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported.
// The model call is the port's: `runAgent` returns the AI SDK's stream, piped into the reply where
// the sample appends the finished `result.finalOutput`; the run's durable tools go to the agent.
import type { AppMentionEvent, EventArgs, RunArgs } from "../../../../../src/lib";
import { AgentDeps, type AgentInputItem, runAgent } from "../../agent";
import { conversationStore } from "../../thread-context";
import { buildFeedbackBlocks } from "../views/feedbackBuilder";

/** Handle app_mention events and run the agent. */
export async function handleAppMentioned({
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
        text: "Hey there! How can I help you? Ask me anything and I'll do my best.",
        thread_ts: threadTs,
      });
      return;
    }

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

    // Get conversation history
    const history = conversationStore.getHistory(channelId, threadTs);
    const inputItems: string | AgentInputItem[] = history ? [...history, { role: "user", content: cleanedText }] : cleanedText;

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
    logger.error(`Failed to handle app mention: ${e}`);
    await say({
      text: `:warning: Something went wrong! (${e})`,
      thread_ts: event.thread_ts || event.ts,
    });
  }
}
