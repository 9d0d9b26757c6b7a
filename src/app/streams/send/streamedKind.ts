import type { SlackWebClient } from "../../../slack/client";
import type { ShownMessage } from "../record/replyRecord";
import { streamedContent } from "./messageContent";
import type { MessageKind } from "./messageKind";
import { START_WAIT_BOUND_MS, type StreamSender } from "./streamSender";

/** A message Slack streams: chat.startStream, chat.appendStream, chat.stopStream, each written ahead by the sender. */
export class StreamedKind implements MessageKind {
  constructor(private readonly sender: StreamSender) {}

  private get client(): SlackWebClient {
    return this.sender.client;
  }

  /** The reply's channel: every call but the start names its message there by its ts. */
  private get channel(): string {
    return this.sender.thread.channel;
  }

  /** A start whose turn is further than START_WAIT_BOUND_MS is not sent: it throws StartsExhausted. */
  async start(text: string, chunks?: readonly unknown[]): Promise<string> {
    const { thread, start } = this.sender;
    const body = { channel: thread.channel, thread_ts: thread.threadTs, ...start, ...streamedContent(text, chunks) };
    const sent = { op: "start" as const, text, at: Date.now(), chunks: chunks?.length };
    const call = () => this.client.call<{ ts: string }>("chat.startStream", body);
    const { ts } = await this.sender.send(sent, call, START_WAIT_BOUND_MS);
    return ts;
  }

  async append(message: ShownMessage, text: string, chunks?: readonly unknown[]): Promise<void> {
    const body = { channel: this.channel, ts: message.ts, ...streamedContent(text, chunks) };
    await this.sender.send({ op: "append", ts: message.ts, text }, () => this.client.call("chat.appendStream", body));
  }

  async stop(message: ShownMessage, text: string, chunks?: readonly unknown[], blocks?: readonly unknown[]): Promise<void> {
    const body = {
      channel: this.channel,
      ts: message.ts,
      ...streamedContent(text, chunks),
      ...(blocks ? { blocks } : {}),
    };
    // With blocks it is the final stop: a retry that cannot know whether they show sets them in place.
    await this.sender.send({ op: blocks ? "final" : "stop", ts: message.ts, text }, () =>
      this.client.call("chat.stopStream", body),
    );
  }

  async stopStream(message: ShownMessage): Promise<void> {
    await this.sender.send({ op: "stop", ts: message.ts, text: "" }, () =>
      this.client.call("chat.stopStream", { channel: this.channel, ts: message.ts }),
    );
    this.sender.record.closed(message);
  }
}
