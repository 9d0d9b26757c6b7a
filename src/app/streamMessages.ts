import { SlackApiError } from "../platform/errors";
import { log } from "../platform/log";
import type { SlackWebClient } from "../slack/client";
import { findLostStart } from "./lostStart";
import { finishedContent } from "./messageContent";
import { PostedAnswer, START_WAIT_BOUND_MS, StartsExhausted, turnOf } from "./postedAnswer";
import { lengthOf, sealClosed, shownLength } from "./sealedMessages";
import type { StreamedMessage, StreamLedger, StreamRecord, StreamTarget, UnconfirmedCall } from "./streamCheckpoints";

type Json = Record<string, unknown>;

export type { StreamTarget } from "./streamCheckpoints";

/** Slack's answer to a write on a stream it dropped (about 5 minutes after its start) or that was stopped. */
export const NOT_STREAMING = "message_not_in_streaming_state";

export function refusedWith(error: unknown, code: string): boolean {
  return error instanceof SlackApiError && error.code === code;
}

/** A call's content: `markdown_text`, or the chunks with the text as a leading `markdown_text` chunk. */
function content(text: string, chunks: readonly unknown[] | undefined): Json {
  if (!chunks || chunks.length === 0) return text === "" ? {} : { markdown_text: text };
  return { chunks: text === "" ? [...chunks] : [{ type: "markdown_text", text }, ...chunks] };
}

/**
 * The messages of one streamed reply, as Slack shows them, kept in step with its checkpoint:
 * every call that may change a message is written ahead as `unconfirmed` (fenced, extending
 * the run's lease), so a crash leaves a record that says which one call's outcome is unknown.
 */
export class StreamMessages {
  /** Slack answered a call written ahead as unconfirmed, and no checkpoint says so yet. */
  private answered = false;
  private readonly posted: PostedAnswer;

  constructor(
    private readonly client: SlackWebClient,
    private readonly target: StreamTarget,
    private readonly ledger: StreamLedger,
    private readonly name: string,
    readonly record: StreamRecord,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.posted = new PostedAnswer(client, target, (sent, call) => this.send(sent, call));
  }

  /** The message being streamed into, if one is open. */
  open(): StreamedMessage | undefined {
    const last = this.record.messages.at(-1);
    return last?.open ? last : undefined;
  }

  /**
   * A retried run's first act: the call an earlier attempt left unconfirmed may or may not show.
   * Its message is stopped and set to exactly the checkpointed text; the reply continues in a new one.
   */
  async recover(): Promise<void> {
    const { unconfirmed } = this.record;
    if (!unconfirmed) return;
    const message = this.record.messages.find((m) => m.ts === unconfirmed.ts);
    if (message) {
      await this.stopQuietly(message);
      await this.finalise(message);
      // A posted message, set to its checkpointed text, takes more in place as before.
      if (message.posted) message.open = true;
    } else if (unconfirmed.op === "start" || unconfirmed.op === "post") {
      // The start may have opened a message whose ts died with the attempt: found, the reply goes on in it.
      const ts = await findLostStart(this.client, this.target, unconfirmed, this.record.messages);
      if (ts) {
        const posted = unconfirmed.op === "post" ? { posted: true } : {};
        this.record.messages.push({ ts, text: unconfirmed.text, openedAt: unconfirmed.at ?? Date.now(), open: true, ...posted });
        // The start's chunks show in it too: a retry sends them no more.
        this.record.chunks += unconfirmed.chunks ?? 0;
      } else log("warn", "a stream's interrupted start was not found; Slack drops it if it opened", { ...this.target });
    }
    this.save(undefined);
  }

  /** Opens a new message in the thread with `text`: a stream, or a posted message when starts are exhausted. */
  async start(text: string, chunks?: readonly unknown[]): Promise<StreamedMessage> {
    const body = { ...this.target, ...content(text, chunks) };
    const sent = { op: "start" as const, text, at: Date.now(), chunks: chunks?.length };
    const call = () => this.client.call<{ ts: string }>("chat.startStream", body);
    const opened = await this.send(sent, call, START_WAIT_BOUND_MS).then(
      ({ ts }) => ({ ts }),
      async (error) => {
        if (!(error instanceof StartsExhausted)) throw error;
        return { ts: await this.posted.post(text, chunks?.length), posted: true };
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
      // Fenced out: the attempt that owns the run now cannot know this message, so it goes.
      await this.deleteQuietly(message).catch((problem) =>
        log("warn", "an unrecorded stream was not deleted", { ts, error: String(problem) }),
      );
      throw error;
    }
    return message;
  }

  async append(message: StreamedMessage, text: string, chunks?: readonly unknown[]): Promise<void> {
    const body = { channel: this.target.channel, ts: message.ts, ...content(text, chunks) };
    if (message.posted) await this.posted.update(message, text, "append");
    else await this.send({ op: "append", ts: message.ts, text }, () => this.client.call("chat.appendStream", body));
    message.text += text;
    this.record.chunks += chunks?.length ?? 0;
  }

  /** The handler's stop: the last text and blocks on the open message, and the stream is done. */
  async stop(message: StreamedMessage, text: string, chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void> {
    const body = { channel: this.target.channel, ts: message.ts, ...content(text, chunks), ...(blocks ? { blocks } : {}) };
    try {
      if (message.posted) await this.posted.update(message, text, "stop", blocks);
      else await this.send({ op: "stop", ts: message.ts, text }, () => this.client.call("chat.stopStream", body));
      message.text += text;
    } catch (error) {
      if (!refusedWith(error, NOT_STREAMING)) throw error;
      // Dropped by Slack, or stopped in Slack: the message gets its full text and the final blocks
      // (feedback buttons) through chat.update; no message opens just to hold them.
      message.text += text;
      await this.finalise(message, blocks);
    }
    message.open = false;
    this.record.chunks += chunks?.length ?? 0;
    this.record.done = true;
    this.save(undefined);
  }

  /** Stops a message so the reply continues in a new one (one not streaming is finalised by chat.update: false). */
  async close(message: StreamedMessage): Promise<boolean> {
    const stopped = await this.stopQuietly(message);
    if (!stopped) await this.finalise(message);
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
      await this.stopQuietly(message);
      if (start >= at) {
        await this.deleteQuietly(message);
        messages.pop();
      } else {
        message.text = message.text.slice(0, at - start);
        await this.finalise(message);
      }
      this.save(undefined);
    }
  }

  /** Writes the checkpoint (fenced, extending the lease); `unconfirmed` is the call about to be sent. */
  save(unconfirmed: UnconfirmedCall | undefined): void {
    this.record.unconfirmed = unconfirmed;
    this.answered = false;
    sealClosed(this.record);
    this.ledger.write(this.name, this.record);
  }

  /** The attempt ends (its listener threw): a call Slack answered since the last checkpoint is confirmed, so the retry continues the same message. */
  confirm(): void {
    if (this.answered) this.save(undefined);
  }

  /**
   * Sends one call, written ahead. A call the pacer holds back, or Slack answers 429, waits for
   * its turn inside the attempt (text meanwhile gathers into a bigger next flush) instead of
   * ending the attempt; a refusal from Slack is known not to show, so the checkpoint says so.
   */
  private async send<T>(unconfirmed: UnconfirmedCall, call: () => Promise<T>, boundMs = Number.POSITIVE_INFINITY): Promise<T> {
    this.save(unconfirmed);
    for (;;) {
      try {
        const answer = await call();
        this.record.unconfirmed = undefined;
        this.answered = true;
        return answer;
      } catch (error) {
        const turn = turnOf(error);
        if (turn !== undefined) {
          // A start this far from its turn is not sent (the checkpoint says so): the answer is posted instead.
          if (turn - Date.now() > boundMs) {
            this.save(undefined);
            throw new StartsExhausted();
          }
          await this.sleep(Math.max(0, turn - Date.now()));
          continue;
        }
        if (error instanceof SlackApiError) this.save(undefined);
        throw error;
      }
    }
  }

  /** chat.stopStream without text; false when Slack no longer streams the message. */
  private async stopQuietly(message: StreamedMessage): Promise<boolean> {
    // A posted message is no stream: it shows what its last chat.update set.
    if (!message.open || message.posted) return false;
    try {
      await this.send({ op: "stop", ts: message.ts, text: "" }, () =>
        this.client.call("chat.stopStream", { channel: this.target.channel, ts: message.ts }),
      );
      message.open = false;
      return true;
    } catch (error) {
      if (!refusedWith(error, NOT_STREAMING)) throw error;
      return false;
    }
  }

  /** Sets the message to exactly its checkpointed text, and `blocks` under it (idempotent: a retry may send it again). */
  async finalise(message: StreamedMessage, blocks?: readonly unknown[]): Promise<void> {
    const body = { channel: this.target.channel, ts: message.ts, ...finishedContent(message.text, blocks) };
    for (;;) {
      try {
        await this.client.call("chat.update", body);
        break;
      } catch (error) {
        const turn = turnOf(error);
        if (turn === undefined) throw error;
        await this.sleep(Math.max(0, turn - Date.now()));
      }
    }
    message.open = false;
  }

  private async deleteQuietly(message: StreamedMessage): Promise<void> {
    try {
      await this.client.call("chat.delete", { channel: this.target.channel, ts: message.ts });
    } catch (error) {
      if (!refusedWith(error, "message_not_found")) throw error;
    }
  }
}
