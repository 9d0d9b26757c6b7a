import type { StreamedMessage, StreamRecord } from "./checkpoint";

/**
 * A checkpoint of bounded size: a message of the reply that is closed and no longer the last one
 * keeps only its length and a hash of its text (`sealed`), never the text. The open message and
 * the last one keep theirs (recovery sets them to it, the stop's blocks go under it), so a record
 * holds at most two messages' text whatever the reply's length. A retry matches its text against
 * a sealed message as a whole (app/streams/recover/replay.ts). Records written before sealing (full texts)
 * read as they are.
 */

/** cyrb53: a 53-bit hash of a text, deterministic across runtimes and deploys (a retry after an upgrade compares with it). */
export function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** How many characters a message shows, its text kept or sealed. */
export const lengthOf = (message: StreamedMessage): number => message.sealed?.chars ?? message.text.length;

/** How many characters the reply's messages show, joined. */
export const shownLength = (messages: readonly StreamedMessage[]): number =>
  messages.reduce((sum, message) => sum + lengthOf(message), 0);

/** Seals every closed message but the last: its text leaves the record (and memory), its length and hash stay. */
export function sealClosed(record: StreamRecord): void {
  for (const message of record.messages.slice(0, -1)) {
    if (message.open || message.sealed) continue;
    message.sealed = { chars: message.text.length, hash: textHash(message.text) };
    message.text = "";
  }
}
