import type { TaskUpdateChunk, URLSourceElement } from "@slack/types";
import { ModelAborted } from "../../../platform/errors";
import { type LogFields, log } from "../../../platform/log";
import type { StreamAppendArguments } from "../streamArguments";
import {
  type ModelSource,
  type ModelStream,
  type ModelStreamPart,
  type ModelTextDelta,
  type ModelToolCall,
  type ModelToolOutcome,
  type PipedReply,
  type PipeOptions,
  partsOf,
  sourcesIn,
  urlSource,
} from "./modelParts";

/** What the bridge needs of a stream: Bolt's append, a wait until what was appended is sent, and whether it takes more. */
export interface PipeTarget {
  append(args: StreamAppendArguments): Promise<void>;
  sent(): Promise<void>;
  /** The reply reached its cap (STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS): it shows nothing more. */
  readonly capped: boolean;
}

interface OpenTask {
  chunk: TaskUpdateChunk;
  sources: URLSourceElement[];
}

/**
 * `sayStream().pipe(result)`: the AI SDK's stream of parts into the reply. Text deltas are
 * appended; a tool call opens a `task_update` chunk (`in_progress`) that its result completes
 * (or its error marks `error`), with the sources the model streamed meanwhile and those of its
 * output. A task's id is its place among the reply's tool calls, not the model's call id, so a
 * retried run's tasks are the same tasks (a provider makes new call ids on each request). Text
 * after a task's update waits until the update is sent, so the thread shows text and tasks in the
 * order the model made them (a tool that answers at once has both its updates in one call). Sources outside any task end the text as links. When `signal`
 * aborts (the stop button), reading ends at once and the stream is cancelled; an `error` part
 * throws its error, as the run's failure (retried like any). Once the reply reaches its cap,
 * reading ends and the stream is cancelled too (the model's request ends with the stream's own
 * `signal`, aborted at the cap): `text` ends with the delta that reached it.
 */
export async function pipeModel(
  target: PipeTarget,
  result: ModelStream,
  options: PipeOptions,
  signal: AbortSignal | undefined,
  /** The run's delivery ids, on the line a failed tool writes. */
  logged: LogFields = {},
): Promise<PipedReply> {
  const tasks = new Map<string, OpenTask>();
  const loose: URLSourceElement[] = [];
  let placed = 0;
  let text = "";
  // A task's update not yet sent: text after it waits for it, as text gathered with chunks goes before them.
  let tasksUnsent = false;
  const sendTask = async (task: OpenTask) => {
    await target.append({ chunks: [{ ...task.chunk }] });
    tasksUnsent = true;
  };
  for await (const part of readUntilStopped(partsOf(result), signal, () => target.capped)) {
    switch (part.type) {
      case "text-delta": {
        const delta = (part as ModelTextDelta).text;
        text += delta;
        if (delta === "") break;
        if (tasksUnsent) await target.sent();
        tasksUnsent = false;
        await target.append({ markdown_text: delta });
        break;
      }
      case "tool-call": {
        const call = part as ModelToolCall;
        const shown = options.task?.(call) ?? {};
        const chunk: TaskUpdateChunk = {
          type: "task_update",
          id: `task-${++placed}`,
          title: shown.title ?? call.title ?? call.toolName,
          status: "in_progress",
          ...(shown.details === undefined ? {} : { details: shown.details }),
        };
        const task = { chunk, sources: [] };
        tasks.set(call.toolCallId, task);
        await sendTask(task);
        break;
      }
      case "source": {
        const source = part as ModelSource;
        if (source.sourceType !== "url" || !source.url) break;
        const open = [...tasks.values()].at(-1);
        (open ? open.sources : loose).push(urlSource(source.url, source.title));
        break;
      }
      case "tool-result":
      case "tool-error":
      case "tool-output-denied": {
        const outcome = part as ModelToolOutcome;
        const task = tasks.get(outcome.toolCallId);
        if (!task || outcome.preliminary) break;
        tasks.delete(outcome.toolCallId);
        const failed = outcome.type !== "tool-result";
        if (failed) log("warn", "a tool the model called failed: its task shows an error", { ...logged, tool: outcome.toolName });
        const shown = options.taskOutput?.(outcome) ?? { sources: sourcesIn(outcome.output) };
        const sources = [...task.sources, ...(shown.sources ?? [])];
        task.chunk = {
          ...task.chunk,
          status: failed ? "error" : "complete",
          ...(shown.output === undefined ? {} : { output: shown.output }),
          ...(sources.length === 0 ? {} : { sources }),
        };
        await sendTask(task);
        break;
      }
      case "error":
        throw (part as ModelStreamPart & { error: unknown }).error;
      case "abort":
        throw new ModelAborted(`the model's generation was aborted${reasonOf(part)}`);
    }
  }
  // A capped reply shows nothing more: no links after its notice.
  if (target.capped) return { text, capped: true };
  if (loose.length > 0) await target.append({ markdown_text: linksOf(loose) });
  return { text, capped: false };
}

const reasonOf = (part: ModelStreamPart): string => {
  const reason = (part as { reason?: unknown }).reason;
  return typeof reason === "string" && reason !== "" ? `: ${reason}` : "";
};

/** Sources no task took, as markdown links ending the reply. */
const linksOf = (sources: URLSourceElement[]): string =>
  `\n\nSources: ${sources.map((source) => `[${source.text}](${source.url})`).join(" · ")}`;

/**
 * The parts of `parts` until `signal` aborts or `capped()` says the reply takes no more. At the
 * signal a read in flight is not waited for (a model may not answer again) and its reason is
 * thrown; at the cap no further part is read (a model's parts past it are never pulled). Either
 * way the stream is cancelled (`return()`, which ends this read of it). Cancelling does not abort
 * the model's request (`streamText`'s result keeps a branch of its stream for its promises): only
 * a signal passed to `streamText` as `abortSignal` reaches it, the run's or the stream's
 * (test/streams/modelPipe.test.ts, "the stop button ends the model's generation", and
 * test/streams/pipeCap.test.ts).
 */
async function* readUntilStopped(
  parts: AsyncIterable<ModelStreamPart>,
  signal: AbortSignal | undefined,
  capped: () => boolean,
): AsyncGenerator<ModelStreamPart> {
  const iterator = parts[Symbol.asyncIterator]();
  let abort = () => {};
  const stopped = new Promise<never>((_, reject) => {
    abort = () => reject(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
  // Never left unhandled when the stream ends first.
  stopped.catch(() => {});
  let done = false;
  try {
    while (!capped()) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    // Ended early (aborted, capped, or a part threw): the stream is cancelled, not left half-read (the model's request ends only with its abortSignal).
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
