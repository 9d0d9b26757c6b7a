/**
 * Streamed replies (`sayStream()`): a reply streamed into its thread through one written-ahead
 * sender, checkpointed on the run's outbox row, recovered by a retried run, continued in new
 * messages before Slack's limits, paced, and closed by a parked run's follow-ups. docs/design.md
 * "Streams" tells how.
 */

export type { CloseCalls, Closed } from "./closeMessage";
export { closeMessage } from "./closeMessage";
export type { SayStream } from "./runStreams";
export { noStreams, withStreams } from "./runStreams";
export type {
  ChatStreamer,
  SayStreamOptions,
  StreamAppendArguments,
  StreamStopArguments,
  TaskDisplayMode,
} from "./streamArguments";
export { streamCloses } from "./streamClosing";
