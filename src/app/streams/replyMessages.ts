import { RetryableError, StartsExhausted } from "../../platform/errors";
import { describeError, type LogFields, log } from "../../platform/log";
import { GONE, NOT_STREAMING, outcomeUnknown, refusedWith } from "../../slack/refusals";
import { closeMessage, stopStreaming } from "./close/closeMessage";
import type { StreamedMessage } from "./record/checkpoint";
import type { ReplyRecord, ShownMessage } from "./record/replyRecord";
import { cutPlan } from "./recover/cutPlan";
import { recoverStream } from "./recover/recoverStream";
import type { MessageKind } from "./send/messageKind";
import { PostedKind } from "./send/postedKind";
import { StreamedKind } from "./send/streamedKind";
import type { StreamSender } from "./send/streamSender";

/**
 * How many calls of unknown outcome one reply recovers from inside one attempt (recoverFrom), a
 * recovery's own calls included: past them (Slack down) the attempt ends and its retry, backed off,
 * recovers. So an attempt sends at most this many more calls to a Slack that answers none.
 */
export const RECOVERIES_PER_ATTEMPT = 3;

/**
 * The messages of one streamed reply, as Slack shows them, kept in step with its checkpoint:
 * every call that may change a message is written ahead as `unconfirmed` (fenced, extending
 * the run's lease), so a crash leaves a record that says which one call's outcome is unknown.
 */
export class ReplyMessages {
  /** The reply's record: read here, changed only through its own methods. */
  readonly record: ReplyRecord;
  /** Calls of unknown outcome this attempt recovered from (recoverFrom). */
  private recoveries = 0;
  private readonly streamed: MessageKind;
  private readonly posted: MessageKind;

  constructor(private readonly sender: StreamSender) {
    this.record = sender.record;
    this.streamed = new StreamedKind(sender);
    this.posted = new PostedKind(sender);
  }

  /** The run's delivery ids, for the lines its streams write. */
  get logged(): LogFields {
    return this.sender.logged;
  }

  /** A retried run's first act: the call an earlier attempt left unconfirmed is recovered (recover/recoverStream.ts). */
  async recover(): Promise<void> {
    await this.recoverStream();
  }

  private recoverStream(): Promise<boolean> {
    return recoverStream(
      this.record,
      this.sender,
      (message) => this.closeByStop(message),
      (message) => this.closeByUpdate(message),
    );
  }

  /**
   * A call whose outcome is unknown (a 5xx, a timeout, a reset) is recovered at once, as a retry's
   * first act would (recover/recoverStream.ts), and the attempt goes on from what Slack shows: what
   * it sent stays sent, the text it holds is not lost, the handler does not run again. True when
   * the call shows after all (a start found in the thread). A recovery whose own written-ahead call
   * fails so is recovered in turn. Any other error, or more than RECOVERIES_PER_ATTEMPT of them
   * (Slack down), is thrown: the attempt ends, and its retry recovers from the checkpoint.
   */
  async recoverFrom(error: unknown): Promise<boolean> {
    this.spendRecovery(error);
    return await this.recoverStream().catch((next) => {
      // Recovered in turn only while its failed call is written ahead: a chat.update that failed after
      // the recovery's stop was answered leaves nothing in memory to say the message may show more.
      if (this.record.unconfirmed === undefined) throw next;
      return this.recoverFrom(next);
    });
  }

  /** One of the attempt's recoveries goes to `error`'s call: thrown back when its outcome is known, or none is left. */
  private spendRecovery(error: unknown): void {
    if (!outcomeUnknown(error) || this.recoveries >= RECOVERIES_PER_ATTEMPT) throw error;
    this.recoveries++;
    log("warn", "a streamed reply's call failed, its outcome unknown: recovered in the same attempt", {
      ...this.logged,
      error: describeError(error),
      recoveries: this.recoveries,
    });
  }

  /** Opens a new message in the thread with `text`: a stream, or a posted message when starts are exhausted. */
  async start(text: string, chunks?: readonly unknown[]): Promise<ShownMessage> {
    const opened = await this.streamed.start(text, chunks).then(
      (ts) => ({ ts }),
      async (error) => {
        if (!(error instanceof StartsExhausted)) throw error;
        return { ts: await this.posted.start(text, chunks), posted: true };
      },
    );
    const message: StreamedMessage = { ...opened, text, openedAt: Date.now(), open: true };
    const { ts } = message;
    this.record.opened(message, chunks?.length ?? 0);
    try {
      // The ts is checkpointed at once: a retry must find this message to continue or stop it.
      this.record.save(undefined);
    } catch (error) {
      // Fenced out (or stopped): no attempt can know this message, so it goes — unless the stop
      // named it: the user saw it streaming when they clicked, and the stop stopped it already.
      if (!this.sender.stopNamed(ts))
        await this.sender
          .cleanUp(ts)
          .catch((problem) =>
            log("warn", "an unrecorded stream was not deleted", { ...this.logged, ts, error: String(problem) }),
          );
      throw error;
    }
    return message;
  }

  async append(message: ShownMessage, text: string, chunks?: readonly unknown[]): Promise<void> {
    await this.kindOf(message)
      .append(message, text, chunks)
      .catch((error) => this.foundGone(message, error));
    this.record.appended(message, text, chunks?.length);
  }

  /**
   * A message this run's recovery found in the thread is gone: the attempt that started it, fenced
   * out when the start's answer came at last, deleted it as no one's (start above). The record
   * forgets it and the run is retried: its reply opens a new message. Any other error as it is.
   */
  private foundGone(message: ShownMessage, error: unknown): never {
    if (!message.found || !refusedWith(error, GONE)) throw error;
    this.record.removed(message);
    this.record.save(undefined);
    throw new RetryableError(
      `the reply's message ${message.ts}, found in the thread by a retry, was deleted by the attempt that started it`,
    );
  }

  /** The handler's stop: the last text and blocks on the open message, and the reply is finished. */
  async stop(message: ShownMessage, text: string, chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void> {
    try {
      await this.kindOf(message).stop(message, text, chunks, blocks);
      this.record.appended(message, text);
    } catch (error) {
      // Its outcome unknown: recovered at once (recoverFrom), stopped at exactly its checkpointed text.
      const recovered = outcomeUnknown(error) && (await this.recoveredIn(message, error));
      if (!recovered && !refusedWith(error, NOT_STREAMING)) this.foundGone(message, error);
      // Dropped by Slack, stopped in Slack, or recovered: the message gets its full text and the final
      // blocks (feedback buttons) through chat.update; no message opens just to hold them. A recovered
      // stop with neither shows all it should already.
      this.record.appended(message, text);
      if (!recovered || text !== "" || blocks) await this.closeByUpdate(message, blocks);
    }
    this.record.closed(message);
    this.record.finish(chunks?.length);
  }

  /** Closes a message so the reply continues in a new one: true when chat.stopStream closed it, false when chat.update did. */
  async close(message: ShownMessage): Promise<boolean> {
    let stopped: boolean;
    try {
      stopped = (await closeMessage({ stop: this.stopOf(message), update: () => this.closeByUpdate(message) })) === "stopped";
    } catch (error) {
      if (!outcomeUnknown(error)) this.foundGone(message, error);
      await this.recoveredIn(message, error);
      // A chat.update that failed is not written ahead: nothing recovered it, and the close goes again.
      stopped = message.open ? await this.close(message) : true;
    }
    this.record.closed(message);
    return stopped;
  }

  /** `message`'s call failed, its outcome unknown: recovered at once (recoverFrom); one deleted meanwhile ends the attempt. */
  private async recoveredIn(message: ShownMessage, error: unknown): Promise<true> {
    await this.recoverFrom(error);
    if (!this.record.messages.includes(message)) throw error;
    return true;
  }

  /** chat.stopStream without text, when the message streams: false when it does not. */
  closeByStop(message: ShownMessage): Promise<boolean> {
    return stopStreaming(this.stopOf(message));
  }

  /** A retry's reply differs from `at` on: the messages show exactly its first `at` characters again (recover/cutPlan.ts). */
  async cut(at: number): Promise<void> {
    for (const step of cutPlan(this.record.messages, at)) {
      const message = this.record.messages.find((m) => m.ts === step.ts)!;
      await this.closeByStop(message);
      if (step.op === "delete") {
        await this.sender.delete(message);
        this.record.removed(message);
        // A deleted message takes no blocks in place: the stop's blocks go to a new one instead.
      } else {
        this.record.cutTo(message, step.chars);
        await this.closeByUpdate(message);
      }
      this.record.save(undefined);
    }
  }

  /** The attempt ends (its listener threw): a call Slack answered since the last checkpoint is confirmed, so the retry continues the same message. */
  confirm(): void {
    this.record.confirm();
  }

  /**
   * Closes the message by chat.update: exactly its checkpointed text, and `blocks` under it. It is
   * idempotent, so one whose outcome is unknown is sent again at once, within the attempt's recoveries.
   */
  async closeByUpdate(message: ShownMessage, blocks?: readonly unknown[]): Promise<void> {
    for (;;) {
      try {
        return await this.sender.closeByUpdate(message, blocks);
      } catch (error) {
        this.spendRecovery(error);
      }
    }
  }

  /** Each message of the reply is of one kind: posted once stream starts were exhausted, else streamed. */
  private readonly kindOf = (message: ShownMessage): MessageKind => (message.posted ? this.posted : this.streamed);

  /** The chat.stopStream that closes `message`, while it streams: a closed one, or one of a kind that never streams, has none. */
  private stopOf(message: ShownMessage): (() => Promise<void>) | undefined {
    const kind = this.kindOf(message);
    return message.open && kind.stopStream ? () => kind.stopStream!(message) : undefined;
  }
}
