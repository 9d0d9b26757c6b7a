import { log } from "../../platform/log";
import type { SlackWebClient } from "../../slack/client";
import { NOT_STREAMING, refusedWith } from "../../slack/refusals";
import type { StreamLedger } from "../contract";
import type { MessageKind } from "./messageKind";
import { PostedKind } from "./postedKind";
import { lengthOf, shownLength } from "./sealedMessages";
import type { StreamedMessage, StreamRecord, StreamTarget, UnconfirmedCall } from "./streamCheckpoints";
import { StreamedKind } from "./streamedKind";
import { recoverStream } from "./streamRecovery";
import { StartsExhausted, StreamSender } from "./streamSender";

export type { StreamTarget } from "./streamCheckpoints";

/**
 * The messages of one streamed reply, as Slack shows them, kept in step with its checkpoint:
 * every call that may change a message is written ahead as `unconfirmed` (fenced, extending
 * the run's lease), so a crash leaves a record that says which one call's outcome is unknown.
 */
export class StreamMessages {
  private readonly sender: StreamSender;
  private readonly streamed: MessageKind;
  private readonly posted: MessageKind;

  constructor(
    private readonly client: SlackWebClient,
    private readonly target: StreamTarget,
    ledger: StreamLedger,
    name: string,
    readonly record: StreamRecord,
    sleep: (ms: number) => Promise<void>,
  ) {
    this.sender = new StreamSender(client, target, ledger, name, record, sleep);
    this.streamed = new StreamedKind(client, target, this.sender);
    this.posted = new PostedKind(client, target, this.sender);
  }

  /** The message being streamed into, if one is open. */
  open(): StreamedMessage | undefined {
    const last = this.record.messages.at(-1);
    return last?.open ? last : undefined;
  }

  /** A retried run's first act: the call an earlier attempt left unconfirmed is settled (streamRecovery.ts). */
  async recover(): Promise<void> {
    await recoverStream(this.client, this.target, this.record, this.sender, this.kindOf);
  }

  /** Opens a new message in the thread with `text`: a stream, or a posted message when starts are exhausted. */
  async start(text: string, chunks?: readonly unknown[]): Promise<StreamedMessage> {
    const opened = await this.streamed.start(text, chunks).then(
      (ts) => ({ ts }),
      async (error) => {
        if (!(error instanceof StartsExhausted)) throw error;
        return { ts: await this.posted.start(text, chunks), posted: true };
      },
    );
    const message: StreamedMessage = { ...opened, text, openedAt: Date.now(), open: true };
    const { ts } = message;
    this.record.messages.push(message);
    this.record.chunks += chunks?.length ?? 0;
    try {
      // The ts is checkpointed at once: a retry must find this message to continue or stop it.
      this.save(undefined);
    } catch (error) {
      // Fenced out (or stopped): no attempt can know this message, so it goes, stopped or not.
      await this.sender
        .cleanUp(ts)
        .catch((problem) => log("warn", "an unrecorded stream was not deleted", { ts, error: String(problem) }));
      throw error;
    }
    return message;
  }

  async append(message: StreamedMessage, text: string, chunks?: readonly unknown[]): Promise<void> {
    await this.kindOf(message).append(message, text, chunks);
    message.text += text;
    this.record.chunks += chunks?.length ?? 0;
  }

  /** The handler's stop: the last text and blocks on the open message, and the stream is done. */
  async stop(message: StreamedMessage, text: string, chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void> {
    try {
      await this.kindOf(message).stop(message, text, chunks, blocks);
      message.text += text;
    } catch (error) {
      if (!refusedWith(error, NOT_STREAMING)) throw error;
      // Dropped by Slack, or stopped in Slack: the message gets its full text and the final blocks
      // (feedback buttons) through chat.update; no message opens just to hold them.
      message.text += text;
      await this.sender.finalise(message, blocks);
    }
    message.open = false;
    this.record.chunks += chunks?.length ?? 0;
    this.record.done = true;
    this.save(undefined);
  }

  /** Stops a message so the reply continues in a new one (one not streaming is finalised by chat.update: false). */
  async close(message: StreamedMessage): Promise<boolean> {
    const stopped = await this.kindOf(message).closeByStop(message);
    if (!stopped) await this.sender.finalise(message);
    message.open = false;
    return stopped;
  }

  /** A retry's answer differs from `at` on: the messages show exactly its first `at` characters again. */
  async truncate(at: number): Promise<void> {
    const { messages } = this.record;
    // A sealed message is only ever cut whole: a retry's text is matched against it as a whole.
    for (let start = shownLength(this.record); messages.length > 0; ) {
      const message = messages.at(-1)!;
      start -= lengthOf(message);
      if (start + lengthOf(message) <= at) break;
      await this.kindOf(message).closeByStop(message);
      if (start >= at) {
        await this.sender.delete(message);
        messages.pop();
        // A deleted message takes no blocks in place: the stop's blocks go to a new one instead.
      } else {
        message.text = message.text.slice(0, at - start);
        await this.sender.finalise(message);
      }
      this.save(undefined);
    }
  }

  /** Writes the checkpoint (fenced, extending the lease). */
  save(unconfirmed: UnconfirmedCall | undefined): void {
    this.sender.save(unconfirmed);
  }

  /** The attempt ends (its listener threw): a call Slack answered since the last checkpoint is confirmed, so the retry continues the same message. */
  confirm(): void {
    this.sender.confirm();
  }

  /** Sets the message to exactly its checkpointed text, and `blocks` under it (idempotent: a retry may send it again). */
  async finalise(message: StreamedMessage, blocks?: readonly unknown[]): Promise<void> {
    await this.sender.finalise(message, blocks);
  }

  /** Each message of the reply is of one kind: posted once stream starts were exhausted, else streamed. */
  private readonly kindOf = (message: StreamedMessage): MessageKind => (message.posted ? this.posted : this.streamed);
}
