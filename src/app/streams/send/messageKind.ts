import type { ShownMessage } from "../record/replyRecord";

/**
 * One kind of message of a reply, each of its calls sent through the reply's one written-ahead
 * sender (streamSender.ts): streamed (streamedKind.ts: chat.startStream, appendStream,
 * stopStream) or, when stream starts are exhausted, posted (postedKind.ts: chat.postMessage, then
 * chat.update with its whole text).
 */
export interface MessageKind {
  /** Opens a message in the thread showing `text` (and `chunks`): its ts. */
  start(text: string, chunks?: readonly unknown[]): Promise<string>;
  /** Adds `text` (and `chunks`) to what `message` shows. */
  append(message: ShownMessage, text: string, chunks?: readonly unknown[]): Promise<void>;
  /** The handler's stop: the last `text` (and `chunks`) on `message`, and `blocks` under it. */
  stop(message: ShownMessage, text: string, chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void>;
  /**
   * chat.stopStream without text, for a kind that streams (a posted message never does); it
   * throws what Slack refuses (message_not_in_streaming_state: Slack no longer streams it).
   */
  stopStream?(message: ShownMessage): Promise<void>;
}
