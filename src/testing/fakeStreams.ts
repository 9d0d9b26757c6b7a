import type { AnyChunk, MarkdownTextChunk } from "@slack/types";

/**
 * Slack's streaming messages as a FakeSlack plays them: `chat.startStream` opens one in a
 * thread, `chat.appendStream` adds to its text, `chat.stopStream` closes it. Like Slack, the
 * fake drops a stream that has been open too long, appending or not (later appends and the
 * stop answer `message_not_in_streaming_state`), and refuses text past a size (`msg_too_long`,
 * the append not applied). The message keeps the text it was given; `chat.update` replaces it.
 */

export type StreamState = "streaming" | "stopped" | "dropped";

/** Slack's limits on one stream, as the fake enforces them (the coordinator's own cuts are `StreamLimits`, STREAM_MAX_*). */
export interface FakeStreamLimits {
  /** How long after its start a stream is dropped. */
  streamMaxOpenMs: number;
  /** The most characters a streamed message's text may reach. */
  streamMaxChars: number;
}

/**
 * Slack drops a stream about 5 minutes after its start, and has answered `msg_too_long` from
 * about 11 000 characters (once task cards are present; `markdown_text` is documented to 12 000).
 */
export const SLACK_STREAM_LIMITS: Readonly<FakeStreamLimits> = { streamMaxOpenMs: 300_000, streamMaxChars: 11_000 };

/** What the fake knows of a message beyond what Slack's reads show. */
export interface MessageState {
  /** True while the message is an open stream. */
  streaming: boolean;
  /** `posted` for a message that never streamed. */
  state: StreamState | "posted";
  /** `chat.appendStream` calls applied. */
  appends: number;
  /** Chunks other than `markdown_text` (task updates, plans, blocks), in the order sent. */
  chunks: ShownChunk[];
}

/** A chunk a stream showed besides its text, typed as `@slack/types` types it (the fake keeps what was sent, unchecked). */
export type ShownChunk = Exclude<AnyChunk, MarkdownTextChunk>;

/** The stored message a stream writes to. */
export interface StreamedMessage {
  ts: string;
  text?: unknown;
  blocks?: unknown;
}

interface Stream {
  state: StreamState;
  startedAt: number;
  appends: number;
  chunks: ShownChunk[];
}

type Answer = Record<string, unknown>;

export class FakeStreams {
  private readonly streams = new Map<string, Stream>();
  private readonly limits: FakeStreamLimits;

  constructor(
    private readonly now: () => number,
    limits: Partial<FakeStreamLimits> = {},
  ) {
    this.limits = { ...SLACK_STREAM_LIMITS };
    this.setLimits(limits);
  }

  /** Changes the limits; open streams are held to the new ones from their next call. */
  setLimits(limits: Partial<FakeStreamLimits>): void {
    if (limits.streamMaxOpenMs !== undefined) this.limits.streamMaxOpenMs = limits.streamMaxOpenMs;
    if (limits.streamMaxChars !== undefined) this.limits.streamMaxChars = limits.streamMaxChars;
  }

  /** Slack's error for a `chat.startStream` it refuses, or undefined when the stream may open. */
  refuseStart(channel: string, body: Record<string, unknown>): string | undefined {
    // A stream replies to a user: Slack's SDKs always give it the thread it replies in.
    if (typeof body.thread_ts !== "string" || body.thread_ts === "") return "invalid_arguments";
    // Outside a DM, Slack needs the user (and their team) the stream is for.
    if (!channel.startsWith("D")) {
      if (typeof body.recipient_user_id !== "string") return "missing_recipient_user_id";
      if (typeof body.recipient_team_id !== "string") return "missing_recipient_team_id";
    }
    return textOf(body).text.length > this.limits.streamMaxChars ? "msg_too_long" : undefined;
  }

  /** Makes a just-posted message an open stream with the start's text. */
  open(channel: string, message: StreamedMessage, body: Record<string, unknown>): void {
    const { text, chunks } = textOf(body);
    message.text = text;
    this.streams.set(keyOf(channel, message.ts), { state: "streaming", startedAt: this.now(), appends: 0, chunks });
  }

  /** `chat.appendStream` or `chat.stopStream` on `message` (undefined: no such message). */
  write(method: string, channel: string, message: StreamedMessage | undefined, body: Record<string, unknown>): Answer {
    if (!message) return { ok: false, error: "message_not_found" };
    const stream = this.current(channel, message.ts);
    if (stream?.state !== "streaming") return { ok: false, error: "message_not_in_streaming_state" };
    const { text, chunks } = textOf(body);
    const joined = `${typeof message.text === "string" ? message.text : ""}${text}`;
    // Refused whole, and the stream stays open: the caller may send less.
    if (joined.length > this.limits.streamMaxChars) return { ok: false, error: "msg_too_long" };
    message.text = joined;
    stream.chunks.push(...chunks);
    if (method === "chat.appendStream") {
      stream.appends++;
      return { ok: true, channel, ts: message.ts };
    }
    if (body.blocks !== undefined) message.blocks = body.blocks;
    stream.state = "stopped";
    return { ok: true, channel, ts: message.ts, message };
  }

  stateOf(channel: string, ts: string): MessageState {
    const stream = this.current(channel, ts);
    if (!stream) return { streaming: false, state: "posted", appends: 0, chunks: [] };
    return { streaming: stream.state === "streaming", state: stream.state, appends: stream.appends, chunks: [...stream.chunks] };
  }

  forget(channel: string, ts: string): void {
    this.streams.delete(keyOf(channel, ts));
  }

  /** A message's stream, dropped once it has been open longer than Slack keeps one. */
  private current(channel: string, ts: string): Stream | undefined {
    const stream = this.streams.get(keyOf(channel, ts));
    if (stream?.state === "streaming" && this.now() - stream.startedAt >= this.limits.streamMaxOpenMs) stream.state = "dropped";
    return stream;
  }
}

function keyOf(channel: string, ts: string): string {
  return `${channel} ${ts}`;
}

/** A call's text as Slack shows it (`markdown_text`, then the `markdown_text` chunks), and its other chunks. */
function textOf(body: Record<string, unknown>): { text: string; chunks: ShownChunk[] } {
  let text = typeof body.markdown_text === "string" ? body.markdown_text : "";
  const chunks: ShownChunk[] = [];
  for (const chunk of Array.isArray(body.chunks) ? body.chunks : []) {
    const { type, text: part } = (chunk ?? {}) as { type?: unknown; text?: unknown };
    if (type === "markdown_text" && typeof part === "string") text += part;
    else chunks.push(chunk as ShownChunk);
  }
  return { text, chunks };
}
