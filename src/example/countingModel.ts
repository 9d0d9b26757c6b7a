import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";

/** How long the model takes per token, unless told: one number every 50 ms. */
export const COUNTING_INTERVAL_MS = 50;

const USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/**
 * A deterministic stand-in for a language model, as an AI SDK model (`LanguageModelV4`): asked
 * to "count to N", it first calls its `count` tool, then — once the tool's result is in its
 * prompt — answers one token at a time, "1", " 2", " 3" … every `intervalMs`, so the tokens joined
 * are exactly "1 2 3 … N". No network. The same prompt always gets the same parts, as a retried
 * run's stream expects of its model; its request's `abortSignal` ends the generation at once.
 */
export function countingModel(intervalMs = COUNTING_INTERVAL_MS): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "demo",
    modelId: "counting",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("the counting model only streams: use streamText")),
    doStream: async ({ prompt, abortSignal }: LanguageModelV4CallOptions) => ({
      stream: partsStream(answerTo(prompt), intervalMs, abortSignal),
    }),
  };
}

/** The model's answer to its prompt: the tool call first, the numbers once the tool answered. */
function answerTo(prompt: LanguageModelV4Prompt): LanguageModelV4StreamPart[] {
  const asked = /\bcount to (\d+)\b/i.exec(lastUserText(prompt));
  const n = asked ? Number(asked[1]) : 0;
  if (n < 1) return [...text("Ask me to count to a number."), finish("stop")];
  const counted = prompt.some((message) => message.role === "tool");
  if (!counted)
    return [
      { type: "tool-call", toolCallId: "count-1", toolName: "count", input: JSON.stringify({ to: n }) },
      finish("tool-calls"),
    ];
  return [...text(...Array.from({ length: n }, (_, i) => (i === 0 ? "1" : ` ${i + 1}`))), finish("stop")];
}

const lastUserText = (prompt: LanguageModelV4Prompt): string => {
  const user = prompt.findLast((message) => message.role === "user");
  if (user?.role !== "user") return "";
  return user.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
};

const text = (...deltas: string[]): LanguageModelV4StreamPart[] => [
  { type: "text-start", id: "text-1" },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "text-1", delta })),
  { type: "text-end", id: "text-1" },
];

const finish = (unified: "stop" | "tool-calls"): LanguageModelV4StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: undefined },
  usage: USAGE,
});

/** The parts as a stream, a text delta every `intervalMs` after the first; an abort errors it with the signal's reason. */
function partsStream(
  parts: LanguageModelV4StreamPart[],
  intervalMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let next = 0;
  let deltas = 0;
  return new ReadableStream({
    async pull(controller) {
      const part = parts[next++];
      if (!part) return controller.close();
      if (part.type === "text-delta" && deltas++ > 0) await pause(intervalMs, signal).catch((reason) => controller.error(reason));
      if (signal?.aborted) return controller.error(signal.reason);
      controller.enqueue(part);
    },
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
