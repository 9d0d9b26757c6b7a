import type { AnyChunk } from "@slack/types";
import type { ShownMessage } from "../record/replyRecord";
import { lengthOf, shownLength, textHash } from "../record/sealing";

/**
 * A retried run's text matched against what an earlier attempt's messages show, as pure
 * functions of what shows and how far the match got: text that repeats it is not sent again;
 * text that differs replaces it from where it differs. A message whose text the checkpoint
 * keeps is compared character by character; a sealed one (app/streams/record/sealing.ts) as a
 * whole, by its length and hash, so a difference inside it cuts back to its start, and the run's
 * text of it is sent again (held in `pending` meanwhile: at most one message's worth).
 */

/** What an earlier attempt's messages show: the record's messages and its chunks other than text. */
export interface Shown {
  readonly messages: readonly ShownMessage[];
  readonly chunks: number;
}

/** How far a retried run's text has been matched. */
export interface ReplayState {
  /** Still matching: once the run's text leaves what shows (or never met any), it is sent as it comes. */
  readonly active: boolean;
  /** Characters of this run's text known to show already. */
  readonly matched: number;
  /** This run's text inside a sealed message, not yet compared as a whole. */
  readonly pending: string;
  /** Chunks other than text of this run known to show already. */
  readonly chunksSeen: number;
}

/** What a retried run's text adds to what Slack shows, and where the earlier reply is cut back first. */
export interface ReplayStep {
  text: string;
  extra: AnyChunk[];
  /** The messages must show exactly their first `cutAt` characters again before `text` is sent. */
  cutAt?: number;
}

export interface Replayed {
  state: ReplayState;
  step: ReplayStep;
}

/** A run's match before its first text: active when an earlier attempt may have left something showing. */
export const replayFrom = (active: boolean): ReplayState => ({ active, matched: 0, pending: "", chunksSeen: 0 });

/** Characters of this run's text taken while replaying. */
export const saidOf = (state: ReplayState): number => state.matched + state.pending.length;

/** The run's next `text` (and chunks other than text) matched against what `shown` shows. */
export function replayText(shown: Shown, state: ReplayState, text: string, chunks: AnyChunk[]): Replayed {
  if (!state.active) return { state, step: { text, extra: chunks } };
  let { matched, pending } = state;
  let rest = text;
  let differs = false;
  const total = shownLength(shown.messages);
  while (rest !== "" && matched + pending.length < total) {
    const { message, start } = messageAt(shown.messages, matched);
    if (message.sealed) {
      const { chars, hash } = message.sealed;
      const need = chars - pending.length;
      pending += rest.slice(0, need);
      rest = rest.slice(need);
      if (pending.length < chars) break;
      // Somewhere inside it this run's text differs: it is cut back to its start.
      differs = textHash(pending) !== hash;
      if (differs) break;
      matched += chars;
      pending = "";
      continue;
    }
    const from = matched - start;
    let same = 0;
    while (same < rest.length && from + same < message.text.length && rest[same] === message.text[from + same]) same++;
    matched += same;
    rest = rest.slice(same);
    if (from + same < message.text.length) break;
  }
  const known = Math.min(chunks.length, Math.max(0, shown.chunks - state.chunksSeen));
  const next = { active: true, matched, pending, chunksSeen: state.chunksSeen + known };
  const extra = chunks.slice(known);
  if (rest === "" && extra.length === 0 && !differs) return { state: next, step: { text: "", extra } };
  return leave(shown, next, rest, extra);
}

/** The run's stop: a reply that ends inside what the earlier messages show is shorter, and they are cut back. */
export function replayFinish(shown: Shown, state: ReplayState): Replayed {
  if (!state.active || saidOf(state) >= shownLength(shown.messages)) return leave(shown, state, "", [], false);
  return leave(shown, state, "", []);
}

/** Replay ends: the messages are cut back to what both replies share, and this run's text from there is sent. */
function leave(shown: Shown, state: ReplayState, rest: string, extra: AnyChunk[], cut = true): Replayed {
  const text = state.pending + rest;
  const cutAt = cut && state.matched < shownLength(shown.messages) ? state.matched : undefined;
  return {
    state: { ...state, active: false, pending: "" },
    step: { text, extra, ...(cutAt === undefined ? {} : { cutAt }) },
  };
}

/** The message showing the character at `offset`, and where it starts. */
function messageAt(messages: readonly ShownMessage[], offset: number): { message: ShownMessage; start: number } {
  let start = 0;
  for (const message of messages) {
    const length = lengthOf(message);
    if (offset < start + length) return { message, start };
    start += length;
  }
  throw new Error(`no message shows character ${offset}`);
}
