/**
 * Where a streamed reply's text is cut when it does not fit in one message: never inside a
 * surrogate pair (an emoji stays whole), never leaving a ``` code fence open across messages
 * when the block can move to the next message whole (and one opening late in a message starts the
 * next one before it grows), and at a line break, else a space, when one is in the second half of
 * the room. The pieces joined are always exactly the text: a cut
 * never adds or drops a character (a retried run matches its text against them).
 */

const FENCE = /^ {0,3}(```|~~~)/;

/** The index just past the last code point that fits in `room` characters of `text`. */
export function codePointFloor(text: string, room: number): number {
  if (room >= text.length) return text.length;
  if (room <= 0) return 0;
  const high = text.charCodeAt(room - 1);
  const low = text.charCodeAt(room);
  const splitsPair = high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
  return splitsPair ? room - 1 : room;
}

/**
 * Where the fence still open at the end of `before + text.slice(0, end)` opened, as an index in
 * `text` (-1 when it opened in `before`, or before it: `inBlock`), or undefined when no fence is open there.
 */
export function openFenceAt(before: string, text: string, end: number, inBlock = false): number | undefined {
  const joined = before + text.slice(0, end);
  // The last line is whole when the text breaks the line right there, or ends there.
  const lastWhole = end >= text.length || text[end] === "\n";
  // A message that starts inside a code block (one longer than a message): its first fence closes it.
  let opener: number | undefined = inBlock ? -1 : undefined;
  for (let line = 0; line <= joined.length; ) {
    const next = joined.indexOf("\n", line);
    const stop = next === -1 ? joined.length : next;
    const marker = FENCE.exec(joined.slice(line, stop))?.[1];
    // A fence is a line of its own: one cut off at `end` may still grow into something else.
    if (marker && (next !== -1 || lastWhole)) opener = opener === undefined ? line : undefined;
    if (next === -1) break;
    line = next + 1;
  }
  if (opener === undefined) return undefined;
  return opener - before.length < 0 ? -1 : opener - before.length;
}

/** A code block opening past this share of a message starts the next one: streamed on, it would likely be split. */
const LATE_FENCE = 0.75;

/**
 * How much of `text` goes into a message that shows `before` (after a code block left open by the
 * message before it, when `inBlock`) and has `room` characters left: all
 * of it when it fits (unless a code block opens late in the message); 0 when the rest is better
 * started in a new message (a code block moved whole to the next one); otherwise at least one code point.
 */
export function pieceLength(before: string, text: string, room: number, inBlock = false): number {
  const fits = text.length <= room;
  const limit = fits ? text.length : codePointFloor(text, room);
  const fence = openFenceAt(before, text, limit, inBlock);
  // The block opens in this piece, or at its very start after text already shown: it can move whole.
  const movable = fence !== undefined && fence >= 0 && (fence > 0 || before !== "");
  if (movable && before.length + fence > (before.length + room) * LATE_FENCE) return fence;
  if (fits) return text.length;
  if (limit === 0) return before === "" ? codePointFloor(text, 2) : 0;
  if (movable) return fence;
  const piece = text.slice(0, limit);
  for (const boundary of ["\n", " "]) {
    const at = piece.lastIndexOf(boundary);
    if (at >= piece.length / 2) return at + 1;
  }
  return limit;
}
