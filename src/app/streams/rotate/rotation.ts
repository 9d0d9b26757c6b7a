import type { AnyChunk, Block, KnownBlock } from "@slack/types";
import { log } from "../../../platform/log";
import { NOT_STREAMING, outcomeUnknown, refusedWith } from "../../../slack/refusals";
import type { StreamLimits } from "../../contract";
import type { ShownMessage } from "../record/replyRecord";
import type { ReplyMessages } from "../replyMessages";
import { openFenceAt, pieceLength } from "./textCuts";

/** The least STREAM_MAX_CHARS accepts; a message Slack refuses as too long is never cut below it. */
const MIN_CHARS = 200;

/**
 * How one streamed reply's text reaches its messages: into the open one, continued in a new one
 * before Slack's time or size limit (cut where app/streams/rotate/textCuts.ts says), a dropped one closed and
 * continued, one stopped in Slack the reply's finish. No message opens without something to show.
 */
export class Rotation {
  /** STREAM_MAX_CHARS, lowered where Slack's `msg_too_long` says its limit is lower. */
  maxChars: number;
  /** The message this attempt last streamed into: only its stop in Slack can be the user's. */
  private live: string | undefined;
  /** Messages this attempt opened inside a code block longer than a message: their first fence closes it. */
  private readonly inBlock = new Set<string>();

  constructor(
    private readonly messages: ReplyMessages,
    private readonly limits: Required<StreamLimits>,
  ) {
    this.maxChars = limits.maxChars;
  }

  /** Text into the open message, continued in a new one before Slack's time or size limit. */
  async text(text: string, chunks: AnyChunk[]): Promise<void> {
    let rest = text;
    let full = false;
    // A piece recovered from (its outcome unknown) goes again, chunks alone too.
    let again = false;
    do {
      again = false;
      const open = await this.openForMore(full);
      if (this.messages.record.finished) return;
      const inBlock = this.startsInBlock(open);
      const piece = rest.slice(0, pieceLength(open?.text ?? "", rest, this.maxChars - (open?.text.length ?? 0), inBlock));
      // Cut: this message is full; the rest goes on in a new one (none opens before its piece is known).
      full = piece.length < rest.length;
      const withChunks = !full && chunks.length > 0 ? chunks : undefined;
      // Nothing fits here: the next message takes it. Chunks alone (a task's update) are sent as they are.
      if (piece === "" && !withChunks) continue;
      try {
        if (open) await this.messages.append(open, piece, withChunks);
        this.live = (open ?? (await this.messages.start(piece, withChunks))).ts;
        if (!open && inBlock) this.inBlock.add(this.live);
      } catch (error) {
        if (outcomeUnknown(error)) {
          // Recovered at once (ReplyMessages.recoverFrom): the piece goes again, unless the start is found showing it.
          again = !(await this.messages.recoverFrom(error));
          if (again) continue;
          this.live = this.messages.record.last!.ts;
          if (!open && inBlock) this.inBlock.add(this.live);
          rest = rest.slice(piece.length);
          continue;
        }
        const tooLong = refusedWith(error, "msg_too_long");
        if (open && !tooLong && refusedWith(error, NOT_STREAMING) && (await this.stoppedInSlack(open, false))) return;
        if (open && (tooLong || refusedWith(error, NOT_STREAMING))) {
          // Too long for this message (Slack's limit is what it holds), or dropped by Slack: it is
          // closed at what it shows, and the piece goes to a new message.
          if (tooLong) this.maxChars = Math.max(MIN_CHARS, Math.min(this.maxChars, open.text.length));
          await this.messages.close(open);
          continue;
        }
        if (!tooLong || piece.length <= MIN_CHARS) throw error;
        // Too long even for a new message: Slack's own limit is lower here; smaller messages from now on.
        this.maxChars = Math.max(MIN_CHARS, Math.floor(piece.length / 2));
        continue;
      }
      rest = rest.slice(piece.length);
    } while (rest !== "" || again);
  }

  /** The handler's stop on the open message, old or full as it may be: a stop adds no text, and no message opens for nothing. */
  async stop(blocks: (KnownBlock | Block)[] | undefined): Promise<void> {
    if (this.messages.record.finished) return;
    const open = this.messages.record.open;
    if (open) return await this.messages.stop(open, "", undefined, blocks);
    const last = this.messages.record.last;
    // The blocks go under the last message (its text is kept for this); a reply with no text shows them alone.
    if (last && !last.sealed && blocks) await this.messages.closeByUpdate(last, blocks);
    else if (blocks) return await this.messages.stop(await this.messages.start(""), "", undefined, blocks);
    this.messages.record.finish();
  }

  /** Whether `open` (or, none open, the next message) starts inside a code block the message before left open. */
  private startsInBlock(open: ShownMessage | undefined): boolean {
    if (open) return this.inBlock.has(open.ts);
    const last = this.messages.record.last;
    return (
      last !== undefined && !last.sealed && openFenceAt("", last.text, last.text.length, this.inBlock.has(last.ts)) !== undefined
    );
  }

  /** The open message, if more may go into it; one too old or too full is closed first. */
  private async openForMore(full: boolean): Promise<ShownMessage | undefined> {
    const open = this.messages.record.open;
    if (!open) return undefined;
    if (!full && Date.now() - open.openedAt < this.limits.maxOpenMs && open.text.length < this.maxChars) return open;
    if (!(await this.messages.close(open))) await this.stoppedInSlack(open, true);
    return undefined;
  }

  /**
   * A message this attempt streamed into, found not streaming before Slack drops streams
   * (STREAM_SLACK_DROP_MS), was stopped in Slack (by the user or another client): the reply finishes
   * there, at its checkpointed text; later appends and the stop do nothing. Older, Slack dropped
   * it: false, and the reply goes on in a new message.
   */
  private async stoppedInSlack(message: ShownMessage, closed: boolean): Promise<boolean> {
    // A posted message never streams; one this attempt has not streamed into yet may have been
    // closed by a parked run's follow-ups.
    if (message.posted || message.ts !== this.live || Date.now() - message.openedAt >= this.limits.slackDropMs) return false;
    if (!closed) await this.messages.close(message);
    log("info", "a streamed reply was stopped in Slack: it ends there", { ts: message.ts });
    this.messages.record.finish();
    return true;
  }
}
