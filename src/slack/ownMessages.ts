import { BoundedMap } from "../platform/boundedMap";
import { log } from "../platform/log";

/**
 * The app's own messages among those a lookup found by what they show (a post's id in its
 * metadata, a lost stream start's words). Anyone in a channel — another app, a person's token —
 * can post any metadata and any words, and for `dedupe: "fact"` listeners a post's id is made of
 * values every member sees; only Slack sets who posted a message (`bot_id`, `app_id`, `user`),
 * from the token that posted it. So a found message counts only when those are the app's own, as
 * `auth.test` tells of the token the app posts with; any other is a forgery, ignored and said once
 * per channel — never with its text — and the reply is posted.
 */

type Answer = Record<string, unknown>;

/** Who the app's token posts as: its bot, the app, the bot user (auth.test's `bot_id`, `app_id`, `user_id`). */
export interface OwnBot {
  botId?: string;
  appId?: string;
  userId?: string;
}

/** Channels whose forgery (or unknown bot) an isolate has told: each once, the oldest forgotten first. */
const told = new BoundedMap<string, true>(1_000);

const idOf = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * Whether `message` was posted by the app's bot: its `bot_id` is the bot's (a message without one
 * never is), and its `app_id` and bot user, where Slack shows them, are the app's.
 */
export function isOwnMessage(message: Answer, own: OwnBot): boolean {
  if (own.botId === undefined || message.bot_id !== own.botId) return false;
  if (own.appId !== undefined && message.app_id !== undefined && message.app_id !== own.appId) return false;
  return own.userId === undefined || message.user === undefined || message.user === own.userId;
}

/**
 * The messages of `found` (in `channel`) that the app's bot posted; `call` asks Slack's `auth.test`
 * with the token the lookup reads with, and only when something was found. Slack's refusals of
 * `auth.test` are thrown as any read's.
 */
export async function ownMessages<M extends Answer>(
  call: (method: string, body: Answer) => Promise<Answer>,
  channel: string,
  found: readonly M[],
): Promise<M[]> {
  if (found.length === 0) return [];
  const answer = await call("auth.test", {});
  const own: OwnBot = { botId: idOf(answer.bot_id), appId: idOf(answer.app_id), userId: idOf(answer.user_id) };
  const mine: M[] = [];
  const others: M[] = [];
  for (const message of found) (isOwnMessage(message, own) ? mine : others).push(message);
  const [first] = others;
  if (first === undefined || told.has(channel)) return mine;
  told.set(channel, true);
  if (own.botId === undefined) {
    log("warn", "auth.test named no bot for the app's token: no message found in Slack is taken as the app's own", { channel });
    return mine;
  }
  // Who posted it, never what it says: its text is anyone's words.
  log("warn", "a message found in Slack was posted by another app or user, not this app's bot: ignored, told once per channel", {
    channel,
    ts: idOf(first.ts),
    bot_id: idOf(first.bot_id),
    app_id: idOf(first.app_id),
    user: idOf(first.user),
    forgeries: others.length,
  });
  return mine;
}
