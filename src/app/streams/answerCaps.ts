import { codePointFloor } from "./textCuts";

/** What ends an answer cut at STREAM_MAX_ANSWER_CHARS or STREAM_MAX_ANSWER_MS (shown after its last text). */
export const CUT_TOO_LONG = "\n\n_(The answer was cut here: it is too long.)_";
export const CUT_TOO_SLOW = "\n\n_(The answer was cut here: it took too long.)_";

/**
 * One answer's caps: at most `maxChars` characters of text (counted from the answer's start, so a
 * retry cuts at the same place and replays the notice as shown), and text only until `until`
 * (this attempt's start plus STREAM_MAX_ANSWER_MS). Past either the answer gets its notice and
 * ends; later text is dropped.
 */
export class AnswerCaps {
  private chars = 0;
  ended = false;

  constructor(
    private readonly maxChars: number,
    private readonly until: number,
  ) {}

  /** The part of `text` within the caps, followed by the notice when a cap is reached. */
  take(text: string): string {
    if (this.ended || text === "") return "";
    if (Date.now() >= this.until) return this.end(CUT_TOO_SLOW);
    const room = this.maxChars - this.chars;
    this.chars += Math.min(text.length, room);
    if (text.length <= room) return text;
    return text.slice(0, codePointFloor(text, room)) + this.end(CUT_TOO_LONG);
  }

  private end(notice: string): string {
    this.ended = true;
    return notice;
  }
}
