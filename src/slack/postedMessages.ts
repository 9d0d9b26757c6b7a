import { Paced } from "../platform/errors";
import { ownMessages } from "./ownMessages";
import { postIdOf } from "./postIds";

type Answer = Record<string, unknown>;

/** Where a post went: its conversation, and its thread when it was a reply. */
export interface PostPlace {
  channel: string;
  threadTs?: string;
}

/** What a lookup read: the coordinator's posts (this app's bot's: ownMessages.ts) by id, and whether every page of the window was read. */
export interface PostedMessages {
  byId: Map<string, Answer>;
  complete: boolean;
}

/** How far before an attempt began a post or stream start may carry its ts (the clocks of shard and Slack differ). */
export const CLOCK_SLACK_MS = 10_000;

/** Pages one lookup reads at most; each is a paced call, and pages after the first go only if their turn is now. */
const MAX_PAGES = 3;

/** A conversation id Slack's reads take (a post may name a user, or `#general`, which they do not). */
export function readablePlace(body: Answer): PostPlace | undefined {
  const { channel, thread_ts: threadTs } = body;
  if (typeof channel !== "string" || !/^[CGD][A-Z0-9]{2,}$/.test(channel)) return undefined;
  return typeof threadTs === "string" ? { channel, threadTs } : { channel };
}

/** The scopes that let a token read `place`'s messages: a channel's, a private channel's or group DM's, a DM's. */
const HISTORY_SCOPES: Record<string, readonly string[]> = {
  C: ["channels:history"],
  G: ["groups:history", "mpim:history"],
  D: ["im:history"],
};

/** Whether a token granted `scopes` may read `place` (undefined: not known, so it may). */
export function mayRead(place: PostPlace, scopes: readonly string[] | undefined): boolean {
  return scopes === undefined || (HISTORY_SCOPES[place.channel[0]!] ?? []).some((scope) => scopes.includes(scope));
}

/**
 * The coordinator's posts in `place` since `sinceMs` (less the clock slack), by the ids in their
 * metadata: a thread by `conversations.replies` (oldest first), a channel by
 * `conversations.history` (newest first), `pageSize` messages a page. The first page waits for
 * its turn like any call (Paced postpones the attempt); a further page is read only when its turn
 * is now, else the lookup ends incomplete. A message carrying an id counts only when this app's
 * bot posted it (`auth.test`, asked when one carries an id). Slack's refusals are thrown as any call's.
 */
export async function findPosted(
  read: (method: string, body: Answer) => Promise<Answer>,
  place: PostPlace,
  sinceMs: number,
  pageSize: number,
): Promise<PostedMessages> {
  const named: Answer[] = [];
  const oldest = (Math.max(0, sinceMs - CLOCK_SLACK_MS) / 1000).toFixed(6);
  const [method, where] =
    place.threadTs === undefined
      ? (["conversations.history", { channel: place.channel }] as const)
      : (["conversations.replies", { channel: place.channel, ts: place.threadTs }] as const);
  let cursor: string | undefined;
  let complete = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    let answer: Answer;
    try {
      answer = await read(method, {
        ...where,
        oldest,
        limit: pageSize,
        include_all_metadata: true,
        ...(cursor ? { cursor } : {}),
      });
    } catch (error) {
      if (page > 0 && error instanceof Paced) break;
      throw error;
    }
    const messages = Array.isArray(answer.messages) ? (answer.messages as unknown[]) : [];
    named.push(...messages.filter((message): message is Answer => postIdOf(message) !== undefined));
    const next = (answer.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
    cursor = typeof next === "string" && next !== "" ? next : undefined;
    if (answer.has_more !== true || cursor === undefined) {
      complete = true;
      break;
    }
  }
  // Another app may post any id in the conversation: only the app's own messages are its posts.
  const own = await ownMessages(read, place.channel, named);
  return { byId: new Map(own.map((message) => [postIdOf(message)!, message])), complete };
}
