import type { AnyChunk } from "@slack/types";
import type { ShownMessage } from "./replyRecord";
import { lengthOf, shownLength, textHash } from "./sealedMessages";

/** What a retried run's text adds to what Slack shows, and where the earlier answer is cut back first. */
export interface ReplayStep {
  text: string;
  extra: AnyChunk[];
  /** The messages must show exactly their first `cutAt` characters again before `text` is sent. */
  cutAt?: number;
}

/**
 * A retried run's text matched against what an earlier attempt's messages show: text that repeats
 * it is not sent again; text that differs replaces it from where it differs. A message whose text
 * the checkpoint keeps is compared character by character; a sealed one (app/streams/sealedMessages.ts)
 * as a whole, by its length and hash, so a difference inside it cuts back to its start, and the
 * run's text of it is sent again (held here meanwhile: at most one message's worth).
 */
export class StreamReplay {
  /** Characters of this run's text known to show already. */
  private matched = 0;
  /** This run's text inside a sealed message, not yet compared as a whole. */
  private pending = "";
  private chunksSeen = 0;

  constructor(
    private readonly record: { readonly messages: readonly ShownMessage[]; readonly chunks: number },
    public active: boolean,
  ) {}

  /** Characters of this run's text taken while replaying. */
  get said(): number {
    return this.matched + this.pending.length;
  }

  take(text: string, chunks: AnyChunk[]): ReplayStep {
    if (!this.active) return { text, extra: chunks };
    let rest = text;
    let differs = false;
    const total = shownLength(this.record.messages);
    while (rest !== "" && this.said < total) {
      const { message, start } = this.messageAt(this.matched);
      if (message.sealed) {
        const { chars, hash } = message.sealed;
        const need = chars - this.pending.length;
        this.pending += rest.slice(0, need);
        rest = rest.slice(need);
        if (this.pending.length < chars) break;
        // Somewhere inside it this run's text differs: it is cut back to its start.
        differs = textHash(this.pending) !== hash;
        if (differs) break;
        this.matched += chars;
        this.pending = "";
        continue;
      }
      const from = this.matched - start;
      let same = 0;
      while (same < rest.length && from + same < message.text.length && rest[same] === message.text[from + same]) same++;
      this.matched += same;
      rest = rest.slice(same);
      if (from + same < message.text.length) break;
    }
    const known = Math.min(chunks.length, Math.max(0, this.record.chunks - this.chunksSeen));
    this.chunksSeen += known;
    const extra = chunks.slice(known);
    if (rest === "" && extra.length === 0 && !differs) return { text: "", extra };
    return this.leave(rest, extra);
  }

  /** The run's stop: an answer that ends inside what the earlier messages show is shorter, and they are cut back. */
  end(): ReplayStep {
    if (!this.active || this.said >= shownLength(this.record.messages)) return this.leave("", [], false);
    return this.leave("", []);
  }

  /** Replay ends: the messages are cut back to what both answers share, and this run's text from there is sent. */
  private leave(rest: string, extra: AnyChunk[], cut = true): ReplayStep {
    this.active = false;
    const text = this.pending + rest;
    this.pending = "";
    const cutAt = cut && this.matched < shownLength(this.record.messages) ? this.matched : undefined;
    return { text, extra, ...(cutAt === undefined ? {} : { cutAt }) };
  }

  /** The message showing the character at `offset`, and where it starts. */
  private messageAt(offset: number): { message: ShownMessage; start: number } {
    let start = 0;
    for (const message of this.record.messages) {
      const length = lengthOf(message);
      if (offset < start + length) return { message, start };
      start += length;
    }
    throw new Error(`no message shows character ${offset}`);
  }
}
