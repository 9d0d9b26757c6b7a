/**
 * What the fake Slack answers a successful Web API call, per method, as Slack does: a `ts` for
 * posts, the `view` for `views.*`, the channel's recorded `messages` for reads, streaming states
 * for `chat.*Stream` (see fakeStreams), a DM for `conversations.open`. Any other Web API method is answered `{ ok: true }`, and
 * a name that is none (fakeMethods) `unknown_method`, as Slack answers it.
 */
import { readPage } from "./fakeHistory";
import { isSlackMethod } from "./fakeMethods";
import { PostedMessages } from "./fakePostedMessages";
import type { FakeStreams, MessageState } from "./fakeStreams";

/** Who posted a message, as Slack shows it: a bot's `bot_id` and `app_id`, and the user posting (a bot's user). */
export type MessageAuthor = Partial<Record<"bot_id" | "app_id" | "user", string>>;

/** The app the fake answers: auth.test names its bot, and every message the app posts is by it. */
export const FAKE_APP_BOT = { bot_id: "B0000FAKE", app_id: "A0000TEST", user: "U0000BOT" } as const;

interface StoredMessage extends MessageAuthor {
  type: "message";
  ts: string;
  text?: unknown;
  blocks?: unknown;
  thread_ts?: string;
  /** Slack's message metadata (`event_type`, `event_payload`), as posted. */
  metadata?: unknown;
}

/** A message as the fake holds it: what Slack's reads show, its text as Slack shows it, and its stream's state. */
export type FakeMessage = Omit<StoredMessage, "text"> & { text: string } & MessageState;

export class FakeAnswers {
  private tsCounter = 0;
  /** Every thread's ts the app named: like Slack's, a new message's ts is never one already in the channel. */
  private readonly threadTss = new Set<string>();
  private fileCounter = 0;
  private viewCounter = 0;
  /** Messages the app posted: per channel, oldest first, and by key. */
  private readonly messages = new PostedMessages<StoredMessage>();
  /** The most messages a history read answers a page (Slack: 15 for apps outside the Marketplace). */
  historyPageLimit = Number.POSITIVE_INFINITY;

  constructor(
    private readonly origin: string,
    private readonly streams: FakeStreams,
    private readonly now: () => number,
  ) {}

  /** Messages posted to `channel` (or to its thread `threadTs`) so far, oldest first, with their state. */
  messagesIn(channel: string, threadTs?: string): FakeMessage[] {
    const listed = threadTs === undefined ? this.messages.inChannel(channel) : this.messages.inThread(channel, threadTs);
    return listed.map((message) => this.shown(channel, message));
  }

  /** The message `ts` in `channel` as messagesIn shows it, found by key. */
  message(channel: string, ts: string): FakeMessage | undefined {
    const stored = this.messages.find(channel, ts);
    return stored && this.shown(channel, stored);
  }

  private shown(channel: string, message: StoredMessage): FakeMessage {
    return {
      ...message,
      text: typeof message.text === "string" ? message.text : "",
      ...this.streams.stateOf(channel, message.ts),
    };
  }

  /** Every message posted so far, each with its channel: what a search for a question reads. */
  posted(): Array<FakeMessage & { channel: string }> {
    return this.messages
      .channelNames()
      .flatMap((channel) => this.messagesIn(channel).map((message) => ({ ...message, channel })));
  }

  /** Slack's answer to `method` called with `body`; a post is by the app's bot unless `author` says who. */
  answer(method: string, body: Record<string, unknown>, author: MessageAuthor = FAKE_APP_BOT): Record<string, unknown> {
    const channel = String(body.channel ?? "");
    if (typeof body.thread_ts === "string") this.threadTss.add(`${channel} ${body.thread_ts}`);
    switch (method) {
      case "chat.postMessage": {
        // Slack shows a post's markdown_text as its text.
        const shown = body.markdown_text === undefined ? body : { ...body, text: body.markdown_text };
        const message = this.post(channel, shown, author);
        return { ok: true, channel, ts: message.ts, message };
      }
      case "chat.startStream": {
        const refused = this.streams.refuseStart(channel, body);
        if (refused) return { ok: false, error: refused };
        const message = this.post(channel, { thread_ts: body.thread_ts });
        this.streams.open(channel, message, body);
        return { ok: true, channel, ts: message.ts };
      }
      case "chat.postEphemeral":
        return { ok: true, message_ts: this.nextTs() };
      case "chat.update": {
        const message = this.messages.find(channel, String(body.ts));
        // Slack shows an update's markdown_text as its text, as it does a stream's.
        const text = body.markdown_text ?? body.text;
        if (message)
          Object.assign(message, pick({ ...body, text, metadata: metadataOf(body.metadata) }, "text", "blocks", "metadata"));
        return { ok: true, channel, ts: body.ts, text, message: message ?? { text, ts: body.ts } };
      }
      case "chat.appendStream":
      case "chat.stopStream":
        return this.streams.write(method, channel, this.messages.find(channel, String(body.ts)), body);
      case "chat.delete": {
        this.messages.remove(channel, String(body.ts));
        this.streams.forget(channel, String(body.ts));
        return { ok: true, channel, ts: body.ts };
      }
      case "views.open":
      case "views.push":
      case "views.update":
      case "views.publish":
        return { ok: true, view: this.view(method, body) };
      case "conversations.history":
        return readPage("history", this.messages.inChannel(channel), body, this.historyPageLimit);
      case "conversations.replies":
        return readPage("replies", this.messages.inThread(channel, String(body.ts)), body, this.historyPageLimit);
      case "files.getUploadURLExternal":
        this.fileCounter++;
        return { ok: true, file_id: `F${this.fileCounter}`, upload_url: `${this.origin}/upload/F${this.fileCounter}` };
      case "files.completeUploadExternal":
        return { ok: true, files: body.files };
      case "auth.test":
        // Who the token is: the bot every message the fake posts is from.
        return {
          ok: true,
          url: `${this.origin}/`,
          team: "Test",
          user: "bot",
          team_id: "T0000TEST",
          user_id: FAKE_APP_BOT.user,
          bot_id: FAKE_APP_BOT.bot_id,
          app_id: FAKE_APP_BOT.app_id,
        };
      case "agents.sessions.setStatus":
        return this.sessionStatus(body);
      case "agents.sessions.rename":
        return sessionRenamed(body);
      case "conversations.open":
        return openedConversation(body);
      case "users.info":
        return { ok: true, user: { id: body.user, name: "tester", real_name: `Real ${String(body.user)}` } };
      default:
        return isSlackMethod(method) ? { ok: true } : { ok: false, error: "unknown_method" };
    }
  }

  /**
   * `agents.sessions.setStatus` as Slack documents it: `status` one of active, processing,
   * suspended, closed (required); a thread's session names its `channel_id` and `thread_ts`.
   * Answered with the session's status, the session made if it was none.
   */
  private sessionStatus(body: Record<string, unknown>): Record<string, unknown> {
    const { status, channel_id, thread_ts } = body;
    if (typeof status !== "string" || !SESSION_STATUSES.has(status)) return { ok: false, error: "invalid_arguments" };
    if (typeof channel_id !== "string" || typeof thread_ts !== "string") return { ok: false, error: "invalid_arguments" };
    return { ok: true, status };
  }

  private nextTs(channel = ""): string {
    for (;;) {
      this.tsCounter++;
      const ts = `${Math.floor(this.now() / 1000)}.${String(this.tsCounter).padStart(6, "0")}`;
      // A test's own message ts (its thread root) is made the same way: the fake never reuses one.
      if (!this.threadTss.has(`${channel} ${ts}`)) return ts;
    }
  }

  private post(channel: string, body: Record<string, unknown>, author: MessageAuthor = FAKE_APP_BOT): StoredMessage {
    const message: StoredMessage = {
      type: "message",
      ts: this.nextTs(channel),
      ...author,
      ...pick({ ...body, metadata: metadataOf(body.metadata) }, "text", "blocks", "metadata"),
    };
    if (typeof body.thread_ts === "string") message.thread_ts = body.thread_ts;
    this.messages.add(channel, message);
    return message;
  }

  /** Forgets the messages posted so far; the thread `ts`s it was told of stay known, so none is handed out again. */
  forget(): void {
    this.messages.forget();
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

/**
 * `agents.sessions.rename` as Slack documents it: a thread's session named by its `channel_id` and
 * `thread_ts`, and a `title` of 1 to 200 characters.
 */
function sessionRenamed(body: Record<string, unknown>): Record<string, unknown> {
  const { title, channel_id, thread_ts } = body;
  if (typeof channel_id !== "string" || typeof thread_ts !== "string") return { ok: false, error: "invalid_arguments" };
  if (typeof title !== "string" || title.length < 1 || title.length > 200) return { ok: false, error: "invalid_arguments" };
  return { ok: true };
}

/** The lifecycle statuses `agents.sessions.setStatus` accepts. */
const SESSION_STATUSES = new Set(["active", "processing", "suspended", "closed"]);

function pick(body: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));
}

/** Metadata as Slack stores it: the app may send it as an object or as its JSON. */
function metadataOf(given: unknown): unknown {
  if (typeof given !== "string") return given;
  try {
    return JSON.parse(given);
  } catch {
    return undefined;
  }
}

/**
 * conversations.open as Slack answers it: the conversation named by `channel`, else the DM of one
 * user (or the group DM of up to 8) in `users` — the same id each time for the same people.
 */
function openedConversation(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.channel === "string" && body.channel !== "") return { ok: true, channel: { id: body.channel } };
  const users = String(body.users ?? "")
    .split(",")
    .map((user) => user.trim())
    .filter((user) => user !== "");
  const [only, ...others] = users;
  if (only === undefined) return { ok: false, error: "users_list_not_supplied" };
  if (users.length > 8) return { ok: false, error: "too_many_users" };
  const id =
    others.length === 0
      ? `D${only.slice(1)}`
      : `G${users
          .map((user) => user.slice(1))
          .sort()
          .join("")}`;
  return { ok: true, channel: { id } };
}
