import type { Conversation } from "../../../inbound/types";
import { RunStopped, StartsExhausted } from "../../../platform/errors";
import type { LogFields } from "../../../platform/log";
import { CLEAN_UP, type SlackWebClient } from "../../../slack/client";
import { GONE, heldUntil, refusedBySlack, refusedWith } from "../../../slack/refusals";
import type { StreamLedger } from "../../contract";
import type { StreamRecord, UnconfirmedCall } from "../record/checkpoint";
import { ReplyRecord, type ShownMessage } from "../record/replyRecord";
import type { SayStreamOptions } from "../streamArguments";
import { closedContent } from "./messageContent";

/** The thread a reply goes in: its conversation's channel and root (`Conversation`, the one type of a place). */
export type ReplyThread = Pick<Conversation, "channel" | "threadTs">;

/**
 * What each chat.startStream of a reply carries besides its thread and its content, as
 * `sayStream()` was given it: the user (and team) it replies to, which Slack requires outside
 * DMs, and how its tasks show (none of it goes with its posts: they show no tasks).
 */
export type StartOptions = Omit<SayStreamOptions, "channel" | "thread_ts" | "buffer_size">;

/** A start whose turn (Tier 2, or a 429's Retry-After) is further away than this is posted instead. */
export const START_WAIT_BOUND_MS = 3_000;

/**
 * The one way a streamed reply's calls reach Slack: each call that may change a message is
 * written ahead in its checkpoint as `unconfirmed` (fenced, extending the run's lease), so a
 * crash at any call leaves a record that says which one call's outcome is unknown.
 */
export class StreamSender {
  /** The reply's record, changed only through its methods. */
  readonly record: ReplyRecord;

  constructor(
    /** The Web API client, the reply's thread and its starts' options: the kinds of message send their calls with them. */
    readonly client: SlackWebClient,
    readonly thread: ReplyThread,
    readonly start: StartOptions,
    ledger: StreamLedger,
    name: string,
    record: StreamRecord,
    private readonly sleep: (ms: number) => Promise<void>,
    /** The run's signal: a stop (the stop button, an interrupt) aborts it with RunStopped. */
    private readonly signal?: AbortSignal,
    /** The run's delivery ids (inbound/loggedIds.ts), on each line its streams write. */
    readonly logged: LogFields = {},
  ) {
    this.record = new ReplyRecord(ledger, name, record);
  }

  /**
   * The run's stop named `ts` (Slack showed it streaming at the user's click, and stopped it): the
   * message is the reply the user saw as they stopped it, whether or not this attempt could record it.
   */
  stopNamed(ts: string): boolean {
    const stop = this.signal?.reason;
    return stop instanceof RunStopped && stop.shownStreams.includes(ts);
  }

  /**
   * Sends one call, written ahead; it waits for its turn (inTurn) and, once that wait opened the
   * input gate, is written ahead again (fenced), so an attempt that lost its lease meanwhile
   * sends nothing. A refusal from Slack is known not to show, so the checkpoint says so.
   */
  async send<T>(unconfirmed: UnconfirmedCall, call: () => Promise<T>, boundMs = Number.POSITIVE_INFINITY): Promise<T> {
    this.record.save(unconfirmed);
    try {
      const answer = await this.inTurn(call, boundMs, () => this.record.save(unconfirmed));
      this.record.callAnswered();
      return answer;
    } catch (error) {
      // Refused by Slack, or a start too far from its turn (then posted instead): known not to show.
      // A 5xx is not known: Slack may have applied the call before a proxy answered it.
      if (refusedBySlack(error) || error instanceof StartsExhausted) this.record.save(undefined);
      throw error;
    }
  }

  /** Closes the message by chat.update: exactly its checkpointed text, and `blocks` under it (idempotent: a retry may send it again). */
  async closeByUpdate(message: ShownMessage, blocks?: readonly unknown[]): Promise<void> {
    const body = { channel: this.thread.channel, ts: message.ts, ...closedContent(message.text, blocks) };
    await this.inTurn(() => this.client.call("chat.update", body));
    this.record.closed(message);
  }

  /** Deletes a message of the reply, written ahead: a retry that cannot know the outcome deletes it again. */
  async delete(message: ShownMessage): Promise<void> {
    try {
      await this.send({ op: "delete", ts: message.ts, text: "" }, () =>
        this.client.call("chat.delete", { channel: this.thread.channel, ts: message.ts }),
      );
    } catch (error) {
      if (!refusedWith(error, GONE)) throw error;
    }
  }

  /** Deletes a message no checkpoint could record (fenced out), even once the run is stopped: no one else knows it. */
  async cleanUp(ts: string): Promise<void> {
    try {
      await this.client[CLEAN_UP]("chat.delete", { channel: this.thread.channel, ts });
    } catch (error) {
      if (!refusedWith(error, GONE)) throw error;
    }
  }

  /**
   * The one wait for a turn: a call the pacer holds back, or Slack answers 429, waits for its
   * turn inside the attempt (text meanwhile gathers into a bigger next flush) instead of ending
   * the attempt, then goes again after `waited`; one whose turn is further than `boundMs` away
   * is not sent (StartsExhausted).
   */
  async inTurn<T>(call: () => Promise<T>, boundMs = Number.POSITIVE_INFINITY, waited = () => {}): Promise<T> {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        const turn = heldUntil(error);
        if (turn === undefined) throw error;
        if (turn - Date.now() > boundMs) throw new StartsExhausted();
        await this.sleep(Math.max(0, turn - Date.now()));
        waited();
      }
    }
  }
}
