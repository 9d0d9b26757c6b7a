import type { AnyChunk, Block, KnownBlock } from "@slack/types";
import type { ModelStream, PipedReply, PipeOptions } from "./pipe/modelParts";

/** What a listener's `sayStream()` takes and gives: Bolt's chat streamer's shapes (app/streams/durableStreamer.ts). */

/** `sayStream(options?)`: where to stream (the delivery's channel, thread and user unless told), and the buffer. */
export interface SayStreamOptions {
  channel?: string;
  thread_ts?: string;
  recipient_user_id?: string;
  recipient_team_id?: string;
  /** Characters gathered before they are sent (256, as Slack's SDKs); chunks are sent at once. */
  buffer_size?: number;
  /**
   * How Slack shows the reply's `task_update` chunks: `timeline` (each task in sequence, with its
   * text) or `plan` (all tasks together, where the first one is). Sent with each message's
   * `chat.startStream` (a chain's messages alike).
   */
  task_display_mode?: TaskDisplayMode;
}

/** `chat.startStream`'s `task_display_mode`, as Slack documents it. */
export type TaskDisplayMode = "timeline" | "plan";

export type StreamAppendArguments =
  | { markdown_text: string; chunks?: undefined }
  | { chunks: AnyChunk[]; markdown_text?: string };

export interface StreamStopArguments {
  markdown_text?: string;
  chunks?: AnyChunk[];
  /** Shown under the reply once it is stopped (feedback buttons, for instance). */
  blocks?: (KnownBlock | Block)[];
}

/** Bolt's chat streamer, made durable: a retried run continues (or replaces) the same reply. */
export interface ChatStreamer {
  append(args: StreamAppendArguments): Promise<void>;
  stop(args?: StreamStopArguments): Promise<void>;
  /**
   * Appends the AI SDK's `streamText(…)` result (v7) as it streams: its text, and each tool call
   * as a `task_update` chunk, `in_progress` then `complete` or `error`, with its sources. Resolves
   * once the model's stream ended (the reply stays open for more, or `stop()`), or once the
   * reply reached its cap (reading ends there and the stream is cancelled); throws the model's
   * error. Pass this stream's `signal` to `streamText` as `abortSignal`: the stop button and the
   * cap then end the generation itself.
   */
  pipe(result: ModelStream, options?: PipeOptions): Promise<PipedReply>;
  /**
   * Aborts at the stop button (the run's `signal`) or when the reply reaches its cap
   * (STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS): `streamText({ …, abortSignal: stream.signal })`
   * stops the model's generation, and its bill, at either.
   */
  readonly signal: AbortSignal;
  /** The message being streamed (the latest of the reply's messages), once Slack gave its ts. */
  readonly ts: string | undefined;
}
