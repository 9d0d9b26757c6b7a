import type { ShownMessage } from "../../src/app/streams/record/replyRecord";
import { textHash } from "../../src/app/streams/record/sealing";

/** A closed message of a reply whose text its checkpoint keeps. */
export const kept = (ts: string, text: string): ShownMessage => ({ ts, text, openedAt: 0, open: false });

/** A closed message of a reply sealed in its checkpoint: its length and hash, no text. */
export const sealed = (ts: string, text: string): ShownMessage => ({
  ts,
  text: "",
  openedAt: 0,
  open: false,
  sealed: { chars: text.length, hash: textHash(text) },
});
