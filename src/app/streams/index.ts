/**
 * Streamed replies (`sayStream()`): a reply streamed into its thread through one written-ahead
 * sender, checkpointed on the run's outbox row, recovered by a retried run, continued in new
 * messages before Slack's limits, paced, and closed by a parked run's follow-ups; `pipe()` brings
 * an AI SDK model's stream into it (modelParts.ts: the parts it reads; pipeModel.ts), its broadcasts
 * shown as words (broadcastMentions.ts). docs/design.md "Streams" tells how.
 */

export type { CloseCalls, Closed } from "./closeMessage";
export { closeMessage } from "./closeMessage";
export type {
  ModelSource,
  ModelStream,
  ModelStreamPart,
  ModelToolCall,
  ModelToolOutcome,
  PipedReply,
  PipeOptions,
  TaskOutput,
  TaskText,
} from "./modelParts";
export { ModelAborted } from "./pipeModel";
export type { SayStream } from "./runStreams";
export { noStreams, withStreams } from "./runStreams";
export type {
  ChatStreamer,
  SayStreamOptions,
  StreamAppendArguments,
  StreamStopArguments,
  TaskDisplayMode,
} from "./streamArguments";
export { isStreamCheckpoint, type StreamRecord } from "./streamCheckpoints";
export { streamCloses } from "./streamClosing";
