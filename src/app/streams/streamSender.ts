import { SlackApiError } from "../../platform/errors";
import { CLEAN_UP, type SlackWebClient } from "../../slack/client";
import { GONE, NOT_STREAMING, refusedWith, turnOf } from "../../slack/refusals";
import type { StreamLedger } from "../contract";
import { finishedContent } from "./messageContent";
import { StartsExhausted } from "./postedAnswer";
import { sealClosed } from "./sealedMessages";
import type { StreamedMessage, StreamRecord, StreamTarget, UnconfirmedCall } from "./streamCheckpoints";

/**
 * The one way a streamed reply's calls reach Slack: each call that may change a message is
 * written ahead in its checkpoint as `unconfirmed` (fenced, extending the run's lease), so a
 * crash at any call leaves a record that says which one call's outcome is unknown.
 */
export class StreamSender {
  /** Slack answered a call written ahead as unconfirmed, and no checkpoint says so yet. */
  private answered = false;

  constructor(
    private readonly client: SlackWebClient,
    private readonly target: StreamTarget,
    private readonly ledger: StreamLedger,
    private readonly name: string,
    private readonly record: StreamRecord,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Writes the checkpoint (fenced, extending the lease); `unconfirmed` is the call about to be sent. */
  save(unconfirmed: UnconfirmedCall | undefined): void {
    this.record.unconfirmed = unconfirmed;
    this.answered = false;
    // Closed messages but the last keep only their length and hash: the record stays bounded.
    sealClosed(this.record);
    this.ledger.write(this.name, JSON.stringify(this.record));
  }

  /** The attempt ends (its listener threw): a call Slack answered since the last checkpoint is confirmed. */
  confirm(): void {
    if (this.answered) this.save(undefined);
  }

  /**
   * Sends one call, written ahead. A call the pacer holds back, or Slack answers 429, waits for
   * its turn inside the attempt (text meanwhile gathers into a bigger next flush) instead of
   * ending the attempt; a refusal from Slack is known not to show, so the checkpoint says so.
   */
  async send<T>(unconfirmed: UnconfirmedCall, call: () => Promise<T>, boundMs = Number.POSITIVE_INFINITY): Promise<T> {
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
          // The wait opened the input gate: written ahead again (fenced), so an attempt that lost its lease meanwhile sends nothing.
          this.save(unconfirmed);
          continue;
        }
        if (error instanceof SlackApiError) this.save(undefined);
        throw error;
      }
    }
  }

  /** chat.stopStream without text; false when Slack no longer streams the message. */
  async stopQuietly(message: StreamedMessage): Promise<boolean> {
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

  /** Deletes a message of the reply, written ahead: a retry that cannot know the outcome deletes it again. */
  async delete(message: StreamedMessage): Promise<void> {
    try {
      await this.send({ op: "delete", ts: message.ts, text: "" }, () =>
        this.client.call("chat.delete", { channel: this.target.channel, ts: message.ts }),
      );
    } catch (error) {
      if (!refusedWith(error, GONE)) throw error;
    }
  }

  /** Deletes a message no checkpoint could record (fenced out), even once the run is stopped: no one else knows it. */
  async cleanUp(ts: string): Promise<void> {
    try {
      await this.client[CLEAN_UP]("chat.delete", { channel: this.target.channel, ts });
    } catch (error) {
      if (!refusedWith(error, GONE)) throw error;
    }
  }
}
