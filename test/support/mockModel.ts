import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";

/** The AI SDK's mock model (`ai/test`, v7), answering each call of a run with the next of `steps`. */
export function mockModel(...steps: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: steps.map((parts) => ({ stream: streamOf(parts) })),
  });
}

/** A model's answer as a stream of its parts, all at once. */
export function streamOf(parts: LanguageModelV4StreamPart[]): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

/** A step's end: the model stopped (`stop`), or asked for its tool calls (`tool-calls`). */
export const finish = (unified: "stop" | "tool-calls" = "stop"): LanguageModelV4StreamPart => ({
  type: "finish",
  finishReason: { unified, raw: undefined },
  usage: USAGE,
});

/** Text the model writes, delta by delta, as one text part. */
export const textParts = (id: string, ...deltas: string[]): LanguageModelV4StreamPart[] => [
  { type: "text-start", id },
  ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
  { type: "text-end", id },
];

/** A tool call the model makes, its input as JSON. */
export const toolCall = (toolCallId: string, toolName: string, input: unknown): LanguageModelV4StreamPart => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

/**
 * Parts pulled one at a time, as a provider's response is read: `seen.pulls` counts the parts
 * read, `seen.cancelled` whether the reader cancelled the stream.
 */
export function countedStream<Part>(parts: Part[]) {
  const seen = { pulls: 0, cancelled: false };
  let next = 0;
  const stream = new ReadableStream<Part>(
    {
      pull(controller) {
        seen.pulls++;
        if (next < parts.length) controller.enqueue(parts[next++]!);
        else controller.close();
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** A model answering once with `parts`, pulled as counted (countedStream); `seen.aborted` says whether its request's abortSignal aborted. */
export function countedModel(parts: LanguageModelV4StreamPart[]) {
  const counted = countedStream(parts);
  const seen = Object.assign(counted.seen, { aborted: false });
  const model = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => {
      abortSignal?.addEventListener("abort", () => {
        seen.aborted = true;
      });
      return { stream: counted.stream };
    },
  });
  return { model, seen };
}
