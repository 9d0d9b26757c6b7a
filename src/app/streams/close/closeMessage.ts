import { GONE, NOT_STREAMING, refusedWith } from "../../../slack/refusals";

/** A close's two calls, as one side sends them: a reply's written-ahead sender, or a parked run's `stream.close`. */
export interface CloseCalls {
  /** chat.stopStream without text; none when the message does not stream (posted, or closed already). */
  stop?: () => Promise<unknown>;
  /** chat.update to exactly the message's checkpointed text (and blocks under it). */
  update: () => Promise<unknown>;
}

/** How a close went: chat.stopStream closed it, chat.update did (Slack no longer streamed it), or it was deleted already. */
export type Closed = "stopped" | "updated" | "gone";

/** chat.stopStream through `stop`, when there is one: false when there is none, or Slack no longer streams the message. */
export async function stopStreaming(stop: (() => Promise<unknown>) | undefined): Promise<boolean> {
  if (!stop) return false;
  try {
    await stop();
    return true;
  } catch (error) {
    if (!refusedWith(error, NOT_STREAMING)) throw error;
    return false;
  }
}

/**
 * Closes one message of a reply: chat.stopStream, or, when Slack no longer streams it (dropped,
 * or stopped already: message_not_in_streaming_state), chat.update to exactly its checkpointed
 * text. A message deleted meanwhile (message_not_found on its stop) is closed already where
 * `goneIsClosed` (a parked run's follow-up); a reply's own close lets that refusal through, as
 * every other: its recovery knows the message gone.
 */
export async function closeMessage(calls: CloseCalls, { goneIsClosed = false } = {}): Promise<Closed> {
  try {
    if (await stopStreaming(calls.stop)) return "stopped";
  } catch (error) {
    if (goneIsClosed && refusedWith(error, GONE)) return "gone";
    throw error;
  }
  await calls.update();
  return "updated";
}
