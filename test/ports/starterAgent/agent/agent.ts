// agent/agent.js of Slack's bolt-js-starter-agent (openai-agents-sdk), ported: its agent and its
// system prompt as written; `runAgent` calls the AI SDK's `streamText` (the listeners pipe its
// stream into `sayStream`) where the sample awaits @openai/agents' `run`, with a local stand-in for
// the model (model.ts). No Slack MCP server (it needs OpenAI's runtime and the user's token): the
// port's send_message tool stands in for its "Write" capability.
import { isStepCount, type ModelMessage, streamText } from "ai";
import type { AgentDeps } from "./deps";
import { standInModel } from "./model";
import { addEmojiReaction, sendMessage } from "./tools";

const SYSTEM_PROMPT = `\
You are a friendly Slack assistant. You help people by answering questions, \
having conversations, and being generally useful in Slack.

## PERSONALITY
- Friendly, helpful, and approachable
- Lightly witty — a touch of humor when appropriate, but never forced
- Concise and clear — respect people's time
- Confident but honest when you don't know something

## RESPONSE GUIDELINES
- Keep responses to 3 sentences max — be punchy, scannable, and actionable
- End with a clear next step on its own line so it's easy to spot
- Use a bullet list only for multi-step instructions
- Use casual, conversational language
- Use emoji sparingly — at most one per message, and only to set tone

## FORMATTING RULES
- Use standard Markdown syntax: **bold**, _italic_, \`code\`, \`\`\`code blocks\`\`\`, > blockquotes
- Use bullet points for multi-step instructions

## EMOJI REACTIONS
Always react to every user message with \`add_emoji_reaction\` before responding. \
Pick any Slack emoji that reflects the *topic* or *tone* of the message — be creative and specific \
(e.g. \`dog\` for dog topics, \`books\` for learning, \`wave\` for greetings). \
Vary your picks across a thread; don't repeat the same emoji.

## SLACK MCP SERVER
You may have access to the Slack MCP Server, which gives you powerful Slack tools \
beyond your built-in tools. Use them whenever they would help the user.

Available capabilities:
- **Search**: Search messages and files across public channels, search for channels by name
- **Read**: Read channel message history, read thread replies, read canvas documents
- **Write**: Send messages, create draft messages, schedule messages for later
- **Canvases**: Create, read, and update Slack canvas documents

Use these tools when they can help answer a question or complete a task — for example, \
searching for relevant messages, checking a channel for context, or creating a canvas. \
Also use them when the user explicitly asks you to perform a Slack action.`;

/** One turn of the conversation, as the thread-context store keeps it (the SDK's AgentInputItem). */
export type AgentInputItem = ModelMessage;

export const starterAgent = {
  name: "Starter Agent",
  instructions: SYSTEM_PROMPT,
  tools: { add_emoji_reaction: addEmojiReaction, send_message: sendMessage },
  model: standInModel,
};

/** What the listeners get: the model's stream (for `sayStream().pipe`), and the turn's history once it ended. */
export type RunResult = ReturnType<typeof streamText> & { history: Promise<AgentInputItem[]> };

/** Run the agent: its answer streams as it is made; `history` is the conversation after it. */
export function runAgent(inputItems: string | AgentInputItem[], deps: AgentDeps): RunResult {
  const messages: AgentInputItem[] = typeof inputItems === "string" ? [{ role: "user", content: inputItems }] : inputItems;
  const result = streamText({
    model: starterAgent.model,
    instructions: starterAgent.instructions,
    messages,
    tools: starterAgent.tools,
    toolsContext: { add_emoji_reaction: deps, send_message: deps },
    // The stop button ends the generation.
    abortSignal: deps.run.signal,
    stopWhen: isStepCount(5),
  });
  const history = Promise.resolve(result.steps).then((steps) => [
    ...messages,
    ...steps.flatMap((step) => step.response.messages),
  ]);
  // Read only once the stream was piped whole; a stream that failed is the run's failure, not this promise's.
  history.catch(() => {});
  return Object.assign(result, { history });
}
