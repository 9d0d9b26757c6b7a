import { type SlackWebClient, WRITTEN_AHEAD } from "../../../slack/client";
import type { ShownMessage } from "../record/replyRecord";
import { closedContent, postedContent } from "./messageContent";
import type { MessageKind } from "./messageKind";
import type { ReplyThread, StreamSender } from "./streamSender";

/**
 * A message of a reply posted when stream starts are exhausted: a normal message
 * (chat.postMessage) with the text so far, updated in place (chat.update, Tier 3) with its whole
 * text at each flush and with the final text and blocks at the end. Never streaming, so nothing
 * of it can be left so (it has no stopStream: a close is its chat.update); each call goes through the reply's written-ahead sender, so its
 * durability is the stream's.
 */
export class PostedKind implements MessageKind {
  constructor(private readonly sender: StreamSender) {}

  private get client(): SlackWebClient {
    return this.sender.client;
  }

  private get thread(): ReplyThread {
    return this.sender.thread;
  }

  /** Posts `text` in the thread (written ahead as a start: a lost one is looked for as a start is). */
  async start(text: string, chunks?: readonly unknown[]): Promise<string> {
    const body = { channel: this.thread.channel, thread_ts: this.thread.threadTs, ...postedContent(text) };
    const sent = { op: "post" as const, text, at: Date.now(), chunks: chunks?.length };
    // Written ahead by the sender, and found again by it: not named as the run's own posts are.
    const { ts } = await this.sender.send(sent, () => this.client[WRITTEN_AHEAD]<{ ts: string }>("chat.postMessage", body));
    return ts;
  }

  async append(message: ShownMessage, text: string): Promise<void> {
    await this.update(message, text, "append");
  }

  async stop(message: ShownMessage, text: string, _chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void> {
    await this.update(message, text, "stop", blocks);
  }

  /** Sets the posted message to its text and `more` (and to `blocks` under it, at the end). */
  private async update(message: ShownMessage, more: string, op: "append" | "stop", blocks?: readonly unknown[]): Promise<void> {
    const text = message.text + more;
    // markdown_text goes without blocks: with them, the text is their first (markdown) block.
    const content = blocks ? closedContent(text, blocks) : postedContent(text);
    await this.sender.send({ op, ts: message.ts, text: more }, () =>
      this.client.call("chat.update", { channel: this.thread.channel, ts: message.ts, ...content }),
    );
  }
}
