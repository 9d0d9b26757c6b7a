import { log } from "../../../platform/log";
import { GONE, refusedWith } from "../../../slack/refusals";
import { stopStreaming } from "../close/closeMessage";
import type { ReplyRecord, ShownMessage } from "../record/replyRecord";
import type { StreamSender } from "../send/streamSender";
import { findLostStart } from "./lostStart";

/**
 * A retried run's first act, and an attempt's own after a call whose outcome it could not learn
 * (replyMessages.ts): the call left unconfirmed may or may not show.
 * Its message is stopped and set to exactly the checkpointed text; a deleted one (by a delete
 * written ahead, or found gone) leaves the record; a start whose ts died with its attempt is
 * looked for in the thread. A final stop (with blocks) that may have shown leaves its marker: the
 * handler's stop sets the blocks in place under that message (rotate/rotation.ts), once.
 * True when the call shows after all: a start found in the thread, its text in the reply's record.
 */
export async function recoverStream(
  record: ReplyRecord,
  sender: StreamSender,
  closeByStop: (message: ShownMessage) => Promise<boolean>,
  /** chat.update to exactly the checkpointed text (idempotent: the reply's messages send it again when its outcome is unknown). */
  closeByUpdate: (message: ShownMessage) => Promise<void> = (message) => sender.closeByUpdate(message),
): Promise<boolean> {
  const { client, thread, start } = sender;
  const { unconfirmed } = record;
  if (!unconfirmed) return false;
  let shows = false;
  const message = record.messages.find((m) => m.ts === unconfirmed.ts);
  if (message) {
    let gone = unconfirmed.op === "delete";
    try {
      if (gone) await sender.delete(message);
      else if (unconfirmed.op === "append" && unconfirmed.text === "" && message.open) {
        // Chunks alone (a task's update, keyed by its id) show the same when sent twice: the message
        // stays open and the retry sends them again there. Closed, its cards would stay as they were
        // (a task `in_progress` for good) above a new message.
      } else if (unconfirmed.op === "final") {
        // Not written ahead: until the handler's stop sets the blocks in place, the checkpoint says they may show.
        await stopStreaming(() =>
          sender.inTurn(() => client.call("chat.stopStream", { channel: thread.channel, ts: message.ts })),
        );
        await closeByUpdate(message);
        return false;
      } else {
        await closeByStop(message);
        await closeByUpdate(message);
      }
    } catch (error) {
      // Deleted already (a delete whose answer was lost, or by hand): nothing of it shows.
      if (!refusedWith(error, GONE)) throw error;
      gone = true;
    }
    if (gone) record.removed(message);
    // A posted message, set to its checkpointed text, takes more in place as before.
    else if (message.posted) record.reopened(message);
  } else if (unconfirmed.op === "start" || unconfirmed.op === "post") {
    // The start may have opened a message whose ts died with the attempt: found, the reply goes on in it.
    // A read Slack asks to wait for (429) waits in the attempt, as every call of the reply does.
    const ts = await findLostStart(client, thread, unconfirmed, record.messages, sender.logged, (call) => sender.inTurn(call));
    shows = ts !== undefined;
    if (ts) {
      const posted = unconfirmed.op === "post" ? { posted: true } : {};
      // The start's chunks show in it too: a retry sends them no more.
      const found = { ts, text: unconfirmed.text, openedAt: unconfirmed.at ?? Date.now(), open: true, found: true, ...posted };
      record.opened(found, unconfirmed.chunks ?? 0);
    } else
      log("warn", "a stream's interrupted start was not found; Slack drops it if it opened", {
        ...sender.logged,
        channel: thread.channel,
        thread_ts: thread.threadTs,
        ...start,
      });
  }
  record.save(undefined);
  return shows;
}
