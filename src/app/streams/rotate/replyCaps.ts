import { codePointFloor } from "./textCuts";

/** What ends a reply cut at STREAM_MAX_REPLY_CHARS or STREAM_MAX_REPLY_MS (shown after its last text; its words are the user's to read, unchanged). */
export const CUT_TOO_LONG = "\n\n_(The answer was cut here: it is too long.)_";
export const CUT_TOO_SLOW = "\n\n_(The answer was cut here: it took too long.)_";

/**
 * One reply's caps: at most `maxChars` characters of text (counted from the reply's start, so a
 * retry cuts at the same place and replays the notice as shown), and text only until `until`
 * (this attempt's start plus STREAM_MAX_REPLY_MS). Past either the reply gets its notice and
 * finishes; later text is dropped.
 */
export class ReplyCaps {
  private chars = 0;
  /** A cap was reached: the reply finishes with its notice. */
  reached = false;

  constructor(
    private readonly maxChars: number,
    private readonly until: number,
  ) {}

  /** The part of `text` within the caps, followed by the notice when a cap is reached. */
  take(text: string): string {
    if (this.reached || text === "") return "";
    if (Date.now() >= this.until) return this.reach(CUT_TOO_SLOW);
    const room = this.maxChars - this.chars;
    this.chars += Math.min(text.length, room);
    if (text.length <= room) return text;
    return text.slice(0, codePointFloor(text, room)) + this.reach(CUT_TOO_LONG);
  }

  private reach(notice: string): string {
    this.reached = true;
    return notice;
  }
}
