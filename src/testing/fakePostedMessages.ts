/**
 * The messages a FakeSlack holds: per channel, oldest first (what conversations.history and
 * .replies read), and by `{channel} {ts}` — so an update, a stream's append or a `message()` finds
 * its message without reading the channel's list, which at 300 posts a second for minutes was most
 * of the fake's CPU and grew with every post (bench/README.md "A shard past its capacity").
 */
export class PostedMessages<M extends { ts: string; thread_ts?: string }> {
  private readonly channels = new Map<string, M[]>();
  private readonly byTs = new Map<string, M>();

  add(channel: string, message: M): void {
    const list = this.channels.get(channel) ?? [];
    list.push(message);
    this.channels.set(channel, list);
    this.byTs.set(`${channel} ${message.ts}`, message);
  }

  find(channel: string, ts: string): M | undefined {
    return this.byTs.get(`${channel} ${ts}`);
  }

  remove(channel: string, ts: string): void {
    if (!this.byTs.delete(`${channel} ${ts}`)) return;
    this.channels.set(
      channel,
      this.inChannel(channel).filter((m) => m.ts !== ts),
    );
  }

  /** The channel's messages, oldest first (a copy). */
  inChannel(channel: string): M[] {
    return [...(this.channels.get(channel) ?? [])];
  }

  /** A thread as conversations.replies reads it: its parent (when the app posted it) and replies. */
  inThread(channel: string, ts: string): M[] {
    return (this.channels.get(channel) ?? []).filter((m) => m.ts === ts || m.thread_ts === ts);
  }

  channelNames(): string[] {
    return [...this.channels.keys()];
  }

  /** Forgets them all (a long bench keeps the fake's memory flat). */
  forget(): void {
    this.channels.clear();
    this.byTs.clear();
  }
}
