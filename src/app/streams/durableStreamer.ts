import type { AnyChunk } from "@slack/types";
import { HandlerMisuse } from "../../platform/errors";
import { log } from "../../platform/log";
import type { StreamLimits } from "../contract";
import { BroadcastGuard } from "./pipe/broadcastMentions";
import type { ModelStream, PipedReply, PipeOptions } from "./pipe/modelParts";
import { pipeModel } from "./pipe/pipeModel";
import { DEFAULT_STREAM_LIMITS } from "./record/checkpoint";
import { type ReplayState, replayFinish, replayFrom, replayText, saidOf } from "./recover/replay";
import type { ReplyMessages } from "./replyMessages";
import { ReplyCaps } from "./rotate/replyCaps";
import { Rotation } from "./rotate/rotation";
import type { ChatStreamer, StreamAppendArguments, StreamStopArguments } from "./streamArguments";

const BUFFER_SIZE = 256;
const markdownOf = (chunks: readonly AnyChunk[] = []): string =>
  chunks.map((chunk) => (chunk.type === "markdown_text" ? chunk.text : "")).join("");

/**
 * One `sayStream()`: sends its first text at once (the user sees the reply begin), then gathers
 * text and sends it in flushes of about `buffer_size` characters (chunks at once), one flush in
 * flight at a time, so a stream Slack or the pacer slows down sends fewer, bigger flushes. A
 * retried run replays through what Slack already shows (app/streams/recover/replay.ts). It keeps no more
 * of the reply than the text gathered for the next flush and its checkpoint (bounded: app/streams/record/sealing.ts).
 */
export class DurableStreamer implements ChatStreamer {
  private buffer = "";
  private chunks: AnyChunk[] = [];
  private work: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private flushQueued = false;
  /** A flush was asked for: the first text goes out at once, later text in flushes of `buffer_size`. */
  private flushedOnce = false;
  /** A flush took text: chunks alone (a task's update before any text) do not count as the first text. */
  private textFlushed = false;
  private stopped = false;
  /** How far this run's text matched what an earlier attempt's messages show (recover/replay.ts). */
  private replay: ReplayState;
  private readonly caps: ReplyCaps;
  /** Aborted once the reply reaches its cap: a model given `signal` stops generating there. */
  private readonly capReached = new AbortController();
  /**
   * The stop button or the reply's cap: passed to `streamText` as `abortSignal`, either ends the
   * model's request (the run's `signal` ends it only at the stop).
   */
  readonly signal: AbortSignal;
  private readonly rotation: Rotation;
  /** Text is matched against what Slack shows only once an earlier attempt's last call is recovered. */
  private readonly recovered: Promise<void>;

  constructor(
    private readonly messages: ReplyMessages,
    given: StreamLimits,
    private readonly bufferSize = BUFFER_SIZE,
    /** The run's stop `signal`: a model piped in is read no further once it aborts. */
    private readonly stopSignal?: AbortSignal,
  ) {
    this.signal = stopSignal ? AbortSignal.any([stopSignal, this.capReached.signal]) : this.capReached.signal;
    const limits = { ...DEFAULT_STREAM_LIMITS, ...given };
    this.rotation = new Rotation(messages, limits);
    this.caps = new ReplyCaps(limits.maxReplyChars, Date.now() + limits.maxReplyMs);
    // An unconfirmed start may turn out to have opened a message (recover() finds it).
    this.replay = replayFrom(messages.record.resumed);
    this.work = this.enqueue(() => messages.recover());
    this.recovered = this.work;
  }

  get ts(): string | undefined {
    return this.messages.record.last?.ts;
  }

  /** The reply reached its cap (STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS): it takes no more text. */
  get capped(): boolean {
    return this.caps.reached;
  }

  /** Whether this stream has sent anything, or has a checkpoint from an earlier attempt. */
  get started(): boolean {
    return (
      this.flushedOnce ||
      this.messages.record.messages.length > 0 ||
      this.buffer !== "" ||
      this.chunks.length > 0 ||
      saidOf(this.replay) > 0
    );
  }

  async append(args: StreamAppendArguments): Promise<void> {
    this.usable("append");
    await this.recovered;
    if (this.messages.record.finished) return;
    this.take(args.markdown_text ?? "", args.chunks ?? []);
    const first = !this.textFlushed && this.buffer !== "";
    if (first || this.buffer.length >= this.bufferSize || this.chunks.length > 0) this.flushSoon();
    // A handler far ahead of Slack waits for the flush in flight rather than gathering without bound.
    if (this.buffer.length >= this.rotation.maxChars) await this.sent();
  }

  /** The AI SDK's `streamText` result into this reply: its text, its tool calls as tasks (app/streams/pipe/pipeModel.ts). */
  async pipe(result: ModelStream, options: PipeOptions = {}): Promise<PipedReply> {
    this.usable("pipe");
    if (options.broadcasts) return pipeModel(this, result, options, this.stopSignal, this.messages.logged);
    // The model's broadcasts shown as words (pipe/broadcastMentions.ts); `text` stays the model's own.
    const guard = new BroadcastGuard(this);
    const piped = await pipeModel(guard, result, options, this.stopSignal, this.messages.logged);
    await guard.end();
    return piped;
  }

  async stop(args: StreamStopArguments = {}): Promise<void> {
    this.usable("stop");
    this.stopped = true;
    await this.recovered;
    if (this.messages.record.finished) return;
    this.take(args.markdown_text ?? "", args.chunks ?? []);
    // This run's reply ends inside what an earlier attempt's messages show: it is shorter.
    const { state, step } = replayFinish(this.messages.record, this.replay);
    this.replay = state;
    this.cutBack(step.cutAt);
    this.buffer += step.text;
    this.work = this.enqueue(async () => {
      await this.flushAll();
      await this.rotation.stop(args.blocks);
    });
    await this.sent();
  }

  /** The listener returned: a reply left open is finished by a stop; the run waits for every call of its streams. */
  async finish(): Promise<void> {
    if (!this.stopped && !this.messages.record.finished && this.started && this.failure === undefined) await this.stop();
    await this.sent();
  }

  /** The listener threw: the calls in flight end, what reached Slack is checkpointed, and its messages stay open for the retry. */
  async leaveOpen(): Promise<void> {
    await this.work;
    // A checkpoint fenced out now changes nothing: the attempt that owns the run has its own.
    if (!this.failure) this.messages.confirm();
  }

  /** Waits until every call enqueued is sent; throws what one of them threw. */
  async sent(): Promise<void> {
    await this.work;
    if (this.failure) throw this.failure.error;
  }

  private usable(what: string): void {
    if (this.failure) throw this.failure.error;
    if (this.stopped) throw new HandlerMisuse(`sayStream: ${what}() after stop()`);
  }

  /** Takes the handler's text within the reply's caps, skipping what Slack already shows from an earlier attempt. */
  private take(text: string, chunks: readonly AnyChunk[]): void {
    const capped = this.caps.reached;
    const within = this.caps.take(text + markdownOf(chunks));
    const extra = capped ? [] : chunks.filter((chunk) => chunk.type !== "markdown_text");
    const { state, step } = replayText(this.messages.record, this.replay, within, extra);
    this.replay = state;
    this.cutBack(step.cutAt);
    this.buffer += step.text;
    this.chunks.push(...step.extra);
    if (capped || !this.caps.reached) return;
    // A cap reached: the reply finishes with its notice; the handler's later appends and stop do nothing.
    log("warn", "a streamed reply reached its cap (STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS): it ends here", {
      ...this.messages.logged,
      ts: this.ts,
    });
    // A model streaming into this reply is told at once (its text past here would be dropped, and billed); an AbortError, as fetch's.
    this.capReached.abort(
      new DOMException("the reply reached its cap (STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS)", "AbortError"),
    );
    this.work = this.enqueue(async () => {
      await this.flushAll();
      await this.rotation.stop(undefined);
    });
  }

  /** The earlier attempt's messages differ from this run's text from `at` on: they are cut back to it first. */
  private cutBack(at: number | undefined): void {
    if (at !== undefined) this.work = this.enqueue(() => this.messages.cut(at));
  }

  private flushSoon(): void {
    this.flushedOnce = true;
    if (this.buffer !== "") this.textFlushed = true;
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.work = this.enqueue(async () => {
      this.flushQueued = false;
      await this.flushAll();
    });
  }

  /** Sends what has gathered, in as many flushes as it takes (text may gather while one is in flight). */
  private async flushAll(): Promise<void> {
    // A reply finished (stopped in Slack, say) takes no more: what gathered is dropped.
    while (!this.messages.record.finished && (this.buffer !== "" || this.chunks.length > 0)) {
      const text = this.buffer;
      const chunks = this.chunks;
      this.buffer = "";
      this.chunks = [];
      await this.rotation.text(text, chunks);
    }
  }

  /** Queues `step` after the work before it; the first failure ends the queue and is kept. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    return this.work.then(async () => {
      if (this.failure) return;
      try {
        await step();
      } catch (error) {
        this.failure = { error };
      }
    });
  }
}
