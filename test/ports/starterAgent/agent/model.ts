// The stand-in for the sample's model ('gpt-4.1-mini' through @openai/agents): the AI SDK's mock
// model, deterministic, no network. Asked a question, it first calls the sample's
// `add_emoji_reaction` (its instructions say to react to every message) and, when the user asks to
// post something to a channel (`post "…" to <#C…>`), the port's `send_message`; given the tools'
// results, it streams its answer word by word, a word every WORD_MS — long enough that Slack sees
// appends, and that the stop button can meet it mid-answer.
import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { finish, textParts, toolCall } from "../../../support/mockModel";

/** How long the stand-in takes per word of its answer. */
export const WORD_MS = 20;

/** What the user asked to post, and where: `post "standup at 10" to <#C0TEAM|team>`. */
const POST_ASKED = /\b(?:post|send)\s+"([^"]+)"\s+to\s+<#(C[A-Z0-9]+)(?:\|[^>]*)?>/i;

/** The answer to `question`, after the tools' `results`: always the same for the same turn. */
export function standInAnswer(question: string, results: string[]): string {
  const sent = results.find((result) => result.startsWith("Sent") || result.startsWith("Not sent"));
  const opening = sent ? `${sent}.` : `Great question: you asked "${question}".`;
  const body = Array.from({ length: 8 }, (_, i) => `Point ${i + 1}: a short, punchy and scannable line of the answer.`);
  return `${opening} ${body.join(" ")}\nNext step: tell me what you want to do next.`;
}

function lastUserText(prompt: LanguageModelV4Prompt): string {
  const user = prompt.filter((message) => message.role === "user").at(-1);
  if (user?.role !== "user") return "";
  return user.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The outputs of the tools the model's last step called, as text. */
function toolResults(prompt: LanguageModelV4Prompt): string[] {
  const last = prompt.at(-1);
  if (last?.role !== "tool") return [];
  return last.content.flatMap((part) =>
    part.type === "tool-result" && "value" in part.output ? [String(part.output.value)] : [],
  );
}

/** One step of the stand-in: the tool calls a question calls for, or the answer once they ran. */
function respond(prompt: LanguageModelV4Prompt): LanguageModelV4StreamPart[] {
  const question = lastUserText(prompt);
  if (prompt.at(-1)?.role === "user") {
    const calls = [
      toolCall("call_emoji", "add_emoji_reaction", { emoji_name: /\bhello|hi\b/i.test(question) ? "wave" : "bulb" }),
    ];
    const post = POST_ASKED.exec(question);
    if (post) calls.push(toolCall("call_send", "send_message", { channel: post[2], text: post[1] }));
    return [...calls, finish("tool-calls")];
  }
  const words = standInAnswer(question, toolResults(prompt)).match(/\S+\s*/g) ?? [];
  return [...textParts("answer", ...words), finish()];
}

/** The model: each call answers from the prompt it is given, paced like a model's stream. */
export const standInModel = new MockLanguageModelV4({
  modelId: "gpt-4.1-mini (stand-in)",
  doStream: async ({ prompt }) => ({
    stream: simulateReadableStream({ chunks: respond(prompt), initialDelayInMs: null, chunkDelayInMs: WORD_MS }),
  }),
});
