import type { StreamLedger } from "../../contract";
import type { StreamedMessage, StreamRecord, UnconfirmedCall } from "./checkpoint";
import { sealClosed } from "./sealing";

/** A message as a reply's record shows it: read anywhere, changed only through ReplyRecord. */
export type ShownMessage = Readonly<StreamedMessage>;

/**
 * The one owner of a streamed reply's record (checkpoint.ts) and of its checkpoint: every
 * change to what the record says Slack shows is one of its named methods, and `save` writes it
 * (fenced, extending the run's lease). Its messages are read through it, never changed from outside.
 */
export class ReplyRecord {
  /** Slack answered a call written ahead as unconfirmed, and no checkpoint says so yet. */
  private answered = false;

  constructor(
    private readonly ledger: StreamLedger,
    private readonly name: string,
    private readonly record: StreamRecord,
  ) {}

  get messages(): readonly ShownMessage[] {
    return this.record.messages;
  }

  get last(): ShownMessage | undefined {
    return this.record.messages.at(-1);
  }

  /** The message being streamed (or posted) into, if one is open: only the last can be. */
  get open(): ShownMessage | undefined {
    const last = this.last;
    return last?.open ? last : undefined;
  }

  /** Chunks other than text sent so far. */
  get chunks(): number {
    return this.record.chunks;
  }

  /** The call sent last, while whether it reached Slack is unknown. */
  get unconfirmed(): UnconfirmedCall | undefined {
    return this.record.unconfirmed;
  }

  /** The reply is finished (the handler's stop, a cap, a stop in Slack): nothing more of it is sent. */
  get finished(): boolean {
    return this.record.done === true;
  }

  /** An earlier attempt left messages, or a call that may have opened one (recovery finds it). */
  get resumed(): boolean {
    return this.record.messages.length > 0 || this.record.unconfirmed !== undefined;
  }

  /** Writes the checkpoint (fenced, extending the lease); `unconfirmed` is the call about to be sent. */
  save(unconfirmed: UnconfirmedCall | undefined): void {
    this.record.unconfirmed = unconfirmed;
    this.answered = false;
    // Closed messages but the last keep only their length and hash: the record stays bounded.
    sealClosed(this.record);
    this.ledger.write(this.name, JSON.stringify(this.record));
  }

  /** Slack answered the call written ahead: it shows, and the next checkpoint says so. */
  callAnswered(): void {
    this.record.unconfirmed = undefined;
    this.answered = true;
  }

  /** The attempt ends (its listener threw): a call Slack answered since the last checkpoint is confirmed. */
  confirm(): void {
    if (this.answered) this.save(undefined);
  }

  /** A new message shows, with `chunks` chunks other than text. */
  opened(message: StreamedMessage, chunks: number): void {
    this.record.messages.push(message);
    this.record.chunks += chunks;
  }

  /** `text` (and `chunks` chunks) reached `message`. */
  appended(message: ShownMessage, text: string, chunks = 0): void {
    this.own(message).text += text;
    this.record.chunks += chunks;
  }

  /** `message` no longer streams (nor takes more in place). */
  closed(message: ShownMessage): void {
    this.own(message).open = false;
  }

  /** A posted message set to its checkpointed text takes more in place again. */
  reopened(message: ShownMessage): void {
    this.own(message).open = true;
  }

  /** `message` is deleted: nothing of it shows. */
  removed(message: ShownMessage): void {
    const { messages } = this.record;
    messages.splice(messages.indexOf(this.own(message)), 1);
  }

  /** `message` shows only its first `chars` characters. */
  cutTo(message: ShownMessage, chars: number): void {
    const own = this.own(message);
    own.text = own.text.slice(0, chars);
  }

  /** The reply is finished (with `chunks` more shown): the checkpoint says so, and nothing more of it is sent. */
  finish(chunks = 0): void {
    this.record.chunks += chunks;
    this.record.done = true;
    this.save(undefined);
  }

  private own(message: ShownMessage): StreamedMessage {
    const own = this.record.messages.find((m) => m === message);
    if (!own) throw new Error(`message ${message.ts} is not one of this reply's`);
    return own;
  }
}
