// agent/support-agent.js of Slack's bolt-js-support-agent (openai-agents-sdk), with a local,
// deterministic stand-in for the model: `runCasey` keeps the sample's signature and result
// (`finalOutput`, `history`) and calls the sample's tools as the model would — one emoji reaction
// on the user's message and one knowledge-base search — so Slack sees what the sample's agent
// makes it see, without a network or a model provider. (No Slack MCP server: that needs OpenAI.)
import type { CaseyDeps } from "./deps";
import { addEmojiReaction, searchKnowledgeBase } from "./tools";

/** The stand-in for `@openai/agents`' AgentInputItem: one turn of the conversation. */
export interface AgentInputItem {
  role: "user" | "assistant";
  content: string;
}

/** What the listeners read of the SDK's RunResult. */
export interface RunResult {
  finalOutput: string;
  history: AgentInputItem[];
}

/** Run the Casey agent (here: the stand-in above). */
export async function runCasey(inputItems: string | AgentInputItem[], deps: CaseyDeps): Promise<RunResult> {
  const items: AgentInputItem[] = typeof inputItems === "string" ? [{ role: "user", content: inputItems }] : inputItems;
  const question = items[items.length - 1].content;
  await addEmojiReaction.execute({ emoji_name: "wrench" }, { context: deps });
  const articles = await searchKnowledgeBase.execute({ query: question });
  const turn = items.filter((item) => item.role === "user").length;
  const finalOutput = `Let's get you sorted (message ${turn} of this thread).\n\n${articles}`;
  return { finalOutput, history: [...items, { role: "assistant", content: finalOutput }] };
}
