import type { URLSourceElement } from "@slack/types";

/**
 * What `sayStream().pipe(result)` reads of the AI SDK's `streamText` result (`ai` v7), written
 * out structurally: the package imports nothing of `ai`, at run time or in its declarations, so
 * an app without it pays nothing and compiles. A `StreamTextResult` fits as is (its `stream`, or
 * `fullStream`); so does any async iterable of parts of these shapes. Parts of other types
 * (reasoning, tool input deltas, steps, files, raw) are read past.
 */

/** One part of the model's stream, as `TextStreamPart` types it: read by its `type`. */
export interface ModelStreamPart {
  readonly type: string;
}

/** What `pipe()` takes: `streamText`'s result, or its stream of parts. */
export type ModelStream =
  | { readonly stream: AsyncIterable<ModelStreamPart> }
  | { readonly fullStream: AsyncIterable<ModelStreamPart> }
  | AsyncIterable<ModelStreamPart>;

export interface ModelTextDelta extends ModelStreamPart {
  readonly type: "text-delta";
  readonly text: string;
}

/** A tool call the model made (`tool-call`): its task opens, `in_progress`. */
export interface ModelToolCall extends ModelStreamPart {
  readonly type: "tool-call";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  /** The tool's `title`, when it has one. */
  readonly title?: string;
}

/** A tool's outcome (`tool-result`, `tool-error`, `tool-output-denied`): its task ends. */
export interface ModelToolOutcome extends ModelStreamPart {
  readonly type: "tool-result" | "tool-error" | "tool-output-denied";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output?: unknown;
  readonly error?: unknown;
  /** A streamed tool's partial output: its task is still in progress. */
  readonly preliminary?: boolean;
}

/** A source the model cited (`source`): a URL source is shown with the task it came in. */
export interface ModelSource extends ModelStreamPart {
  readonly type: "source";
  readonly sourceType: string;
  readonly url?: string;
  readonly title?: string;
}

/** How a tool call's task shows, beside its status: `pipe(result, { task })` says, from the call. */
export interface TaskText {
  title?: string;
  details?: string;
}

/** What a finished tool shows in its task: `pipe(result, { taskOutput })` says, from the outcome. */
export interface TaskOutput {
  output?: string;
  sources?: URLSourceElement[];
}

export interface PipeOptions {
  /** The task of a tool call (default: the tool's `title`, else its name; no details). */
  task?: (call: ModelToolCall) => TaskText;
  /**
   * What a finished tool's task shows (default: no output, and the sources of an output shaped
   * `{ sources: [{ url, title? }] }`); the `source` parts the model streams while the tool runs
   * are shown with it too.
   */
  taskOutput?: (outcome: ModelToolOutcome) => TaskOutput;
  /**
   * Whether the model's `<!channel>`, `<!here>`, `<!everyone>` and `<!subteam^…>` notify as Slack
   * broadcasts (default false: shown as plain `@channel`, `@here`, `@everyone`, the group's label;
   * broadcastMentions.ts). The model writes what its prompts ask; anyone in the channel prompts it.
   */
  broadcasts?: boolean;
}

/** What `pipe()` resolves to once the model's stream ended, or once the reply reached its cap. */
export interface PipedReply {
  /**
   * The model's text as read: at the cap, up to the delta that reached it (so at most
   * STREAM_MAX_REPLY_CHARS plus one delta), of which the reply shows the part within the cap.
   */
  text: string;
  /** The reply reached its cap: reading ended there, the model's stream was cancelled, the reply finished with its notice. */
  capped: boolean;
}

/** The parts of `result` in order: its `stream` (v7), else its `fullStream`, else itself. */
export function partsOf(result: ModelStream): AsyncIterable<ModelStreamPart> {
  if ("stream" in result) return result.stream;
  if ("fullStream" in result) return result.fullStream;
  return result;
}

/** The URL sources of an output shaped `{ sources: [{ url, title? }] }`, as Slack's `url` source elements. */
export function sourcesIn(output: unknown): URLSourceElement[] {
  const sources = (output as { sources?: unknown } | null | undefined)?.sources;
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((source: { url?: unknown; title?: unknown; text?: unknown }) =>
    typeof source?.url === "string" ? [urlSource(source.url, source.title ?? source.text)] : [],
  );
}

export const urlSource = (url: string, title: unknown): URLSourceElement => ({
  type: "url",
  url,
  text: typeof title === "string" && title !== "" ? title : url,
});
