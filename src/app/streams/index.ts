/**
 * Streamed replies (`sayStream()`): a reply streamed into its thread through one written-ahead
 * sender, checkpointed on the run's outbox row, recovered by a retried run, continued in new
 * messages before Slack's limits, paced, and closed by a parked run's follow-ups. By role:
 * - here: a run's streams (runStreams.ts), one `sayStream()` as Bolt's ChatStreamer
 *   (durableStreamer.ts, its shapes in streamArguments.ts) and the reply's messages kept in step
 *   with its record (replyMessages.ts);
 * - record/: the checkpoint (checkpoint.ts: its shape and one reader), its one owner
 *   (replyRecord.ts) and what keeps it bounded (sealing.ts);
 * - send/: the one written-ahead sender (streamSender.ts) and the kinds of message it sends for,
 *   streamed or posted (messageKind.ts, streamedKind.ts, postedKind.ts, messageContent.ts);
 * - rotate/: a reply continued in a new message before Slack's limits (rotation.ts), where its
 *   text is cut (textCuts.ts), and the reply's own caps (replyCaps.ts);
 * - recover/: a retried run's first act, and an attempt's after a call of unknown outcome
 *   (recoverStream.ts, lostStart.ts; replyMessages.ts recovers in the attempt), its text matched against
 *   what shows (replay.ts) and cut back where it differs (cutPlan.ts);
 * - close/: a message closed (closeMessage.ts), and the closes a parked run's follow-ups plan
 *   (parkedCloses.ts);
 * - pipe/: `pipe()`, an AI SDK model's stream into the reply (modelParts.ts: the parts it reads;
 *   pipeModel.ts), its broadcasts shown as words (broadcastMentions.ts).
 * Nothing else in src/ imports anything of it but this file. docs/design.md "Streams" tells how.
 */

export type { CloseCalls, Closed } from "./close/closeMessage";
export { closeMessage } from "./close/closeMessage";
export { parkedCloses } from "./close/parkedCloses";
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
} from "./pipe/modelParts";
export { isStreamCheckpoint, type StreamRecord } from "./record/checkpoint";
export type { SayStream } from "./runStreams";
export { noStreams, withStreams } from "./runStreams";
export type {
  ChatStreamer,
  SayStreamOptions,
  StreamAppendArguments,
  StreamStopArguments,
  TaskDisplayMode,
} from "./streamArguments";
