import type { SlackWebClient } from "../../slack/client";
import type { StreamedMessage, StreamTarget, UnconfirmedCall } from "./streamCheckpoints";

/** A start whose turn (Tier 2, or a 429's Retry-After) is further away than this is posted instead. */
export const START_WAIT_BOUND_MS = 3_000;

/** The stream's start would wait past START_WAIT_BOUND_MS: its answer is posted and updated in place. */
export class StartsExhausted extends Error {
  override name = "StartsExhausted";
}

type Send = <T>(unconfirmed: UnconfirmedCall, call: () => Promise<T>) => Promise<T>;

/**
 * The answer when stream starts are exhausted: a normal message (chat.postMessage) with the
 * text so far, updated in place (chat.update, Tier 3) with its whole text at each flush and with
 * the final text and blocks at the end. Never streaming, so nothing of it can be left so; each
 * call goes through the stream's written-ahead `send`, so its durability is the stream's.
 */
export class PostedAnswer {
  constructor(
    private readonly client: SlackWebClient,
    private readonly target: StreamTarget,
    private readonly send: Send,
  ) {}

  /** Posts `text` in the thread (written ahead as a start: a lost one is looked for as a start is). */
  async post(text: string, chunks: number | undefined): Promise<string> {
    const body = { channel: this.target.channel, thread_ts: this.target.thread_ts, ...shown(text) };
    const sent = { op: "post" as const, text, at: Date.now(), chunks };
    const { ts } = await this.send(sent, () => this.client.call<{ ts: string }>("chat.postMessage", body));
    return ts;
  }

  /** Sets the posted message to its text and `more` (and to `blocks` under it, at the end). */
  async update(message: StreamedMessage, more: string, op: "append" | "stop", blocks?: readonly unknown[]): Promise<void> {
    const text = message.text + more;
    // markdown_text goes without blocks: with them, the text is their first (markdown) block.
    const content = blocks ? { text, blocks: [{ type: "markdown", text }, ...blocks] } : shown(text);
    await this.send({ op, ts: message.ts, text: more }, () =>
      this.client.call("chat.update", { channel: this.target.channel, ts: message.ts, ...content }),
    );
  }
}

/** A message's text as markdown; an empty one shows an ellipsis until its text comes. */
const shown = (text: string) => ({ markdown_text: text === "" ? "…" : text });
