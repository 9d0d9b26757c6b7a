/**
 * What the fake Slack answers a successful Web API call, per method, as Slack does: a `ts` for
 * posts, the `view` for `views.*`, the channel's recorded `messages` for reads, streaming states
 * for `chat.*Stream`. A method it does not know is answered `{ ok: true }`.
 */

interface StoredMessage {
  type: "message";
  ts: string;
  text?: unknown;
  blocks?: unknown;
  thread_ts?: string;
  bot_id: string;
  /** A `chat.startStream` message until `chat.stopStream`. */
  streaming?: boolean;
}

export class FakeAnswers {
  private tsCounter = 0;
  private fileCounter = 0;
  private viewCounter = 0;
  /** Messages the app posted, per channel, oldest first: what conversations.history/replies read. */
  private readonly channels = new Map<string, StoredMessage[]>();

  constructor(private readonly origin: string) {}

  /** Messages posted to `channel` so far (oldest first), as conversations.history would list them. */
  messagesIn(channel: string): StoredMessage[] {
    return [...(this.channels.get(channel) ?? [])];
  }

  answer(method: string, body: Record<string, unknown>): Record<string, unknown> {
    const channel = String(body.channel ?? "");
    switch (method) {
      case "chat.postMessage":
      case "chat.startStream": {
        const message = this.post(channel, body, method === "chat.startStream");
        return { ok: true, channel, ts: message.ts, message };
      }
      case "chat.postEphemeral":
        return { ok: true, message_ts: this.nextTs() };
      case "chat.update": {
        const message = this.find(channel, String(body.ts));
        if (message) Object.assign(message, pick(body, "text", "blocks"));
        return { ok: true, channel, ts: body.ts, text: body.text, message: message ?? { text: body.text, ts: body.ts } };
      }
      case "chat.appendStream":
      case "chat.stopStream":
        return this.stream(method, channel, body);
      case "chat.delete": {
        const list = this.channels.get(channel) ?? [];
        this.channels.set(
          channel,
          list.filter((m) => m.ts !== body.ts),
        );
        return { ok: true, channel, ts: body.ts };
      }
      case "views.open":
      case "views.push":
      case "views.update":
      case "views.publish":
        return { ok: true, view: this.view(method, body) };
      case "conversations.history":
        return { ok: true, messages: this.messagesIn(channel).reverse(), has_more: false };
      case "conversations.replies": {
        const ts = String(body.ts);
        const thread = this.messagesIn(channel).filter((m) => m.ts === ts || m.thread_ts === ts);
        return { ok: true, messages: thread, has_more: false };
      }
      case "files.getUploadURLExternal":
        this.fileCounter++;
        return { ok: true, file_id: `F${this.fileCounter}`, upload_url: `${this.origin}/upload/F${this.fileCounter}` };
      case "files.completeUploadExternal":
        return { ok: true, files: body.files };
      case "users.info":
        return { ok: true, user: { id: body.user, name: "tester", real_name: `Real ${String(body.user)}` } };
      default:
        return { ok: true };
    }
  }

  private nextTs(): string {
    this.tsCounter++;
    return `${Math.floor(Date.now() / 1000)}.${String(this.tsCounter).padStart(6, "0")}`;
  }

  private post(channel: string, body: Record<string, unknown>, streaming: boolean): StoredMessage {
    const message: StoredMessage = { type: "message", ts: this.nextTs(), bot_id: "B0000FAKE", ...pick(body, "text", "blocks") };
    if (streaming) Object.assign(message, { streaming: true, text: body.markdown_text ?? "" });
    if (typeof body.thread_ts === "string") message.thread_ts = body.thread_ts;
    const list = this.channels.get(channel) ?? [];
    list.push(message);
    this.channels.set(channel, list);
    return message;
  }

  private find(channel: string, ts: string): StoredMessage | undefined {
    return this.channels.get(channel)?.find((m) => m.ts === ts);
  }

  private stream(method: string, channel: string, body: Record<string, unknown>): Record<string, unknown> {
    const message = this.find(channel, String(body.ts));
    if (!message?.streaming) return { ok: false, error: "message_not_in_streaming_state" };
    const appended = typeof body.markdown_text === "string" ? body.markdown_text : "";
    message.text = `${typeof message.text === "string" ? message.text : ""}${appended}`;
    if (method === "chat.stopStream") delete message.streaming;
    return { ok: true, channel, ts: message.ts, ...(method === "chat.stopStream" ? { message } : {}) };
  }

  private view(method: string, body: Record<string, unknown>): Record<string, unknown> {
    const given = (body.view ?? {}) as Record<string, unknown>;
    this.viewCounter++;
    const id =
      method === "views.update" && typeof body.view_id === "string"
        ? body.view_id
        : `V${String(this.viewCounter).padStart(8, "0")}`;
    return { id, hash: `${this.viewCounter}.fake`, ...(method === "views.publish" ? { type: "home" } : {}), ...given };
  }
}

function pick(body: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));
}
