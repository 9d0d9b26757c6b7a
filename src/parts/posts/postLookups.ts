import { BoundedMap } from "../../platform/boundedMap";
import { Paced, SlackApiError, SlackUnreachable } from "../../platform/errors";
import type { PostedMessages } from "../../slack/postedMessages";

/** How long a lookup's pages may serve rows that ask after it began: a sweep's batch, with room. */
export const SHARED_LOOKUP_MS = 60_000;
/** Conversations whose last lookup a shard remembers; the least recently looked up are forgotten first. */
const MAX_CONVERSATIONS = 1_000;

/** A row that asks for a lookup: since when its posts are uncertain, and when its attempt claimed it. */
export interface Asker {
  since: number;
  claimedAt: number;
}

/** Reads the conversation's pages from `since`, its reads paced as `holder`'s turn. */
export type Look = (since: number, holder: string) => Promise<PostedMessages>;

interface Lookup {
  since: number;
  begunAt: number;
  pages: Promise<PostedMessages>;
  /** Resolves (never rejects) once `pages` has settled. */
  ended: Promise<void>;
  over: boolean;
  failed: boolean;
  /** The `since` of rows it could not serve, which wait for it to end: the next lookup reads from the earliest. */
  wanting: number[];
}

/**
 * A shard's lookups of uncertain posts, by conversation: the pages one lookup reads serve every
 * uncertain row of its conversation (channel, or thread) that asks while it is recent, instead of
 * each row spending a paced read — at 1 a minute, six rows of one channel taken over after a crash
 * went out over six minutes. One lookup of a conversation at a time, and its turn is the
 * conversation's (the pacer's `holder`), not a row's: rows postponed by it all come back to that
 * one turn, and whichever comes first reads for them all.
 */
export class PostLookups {
  private readonly latest = new BoundedMap<string, Lookup>(
    MAX_CONVERSATIONS,
    (lookup, now) => lookup.over && lookup.begunAt < now - SHARED_LOOKUP_MS,
  );

  constructor(private readonly shard: string) {}

  /** What Slack shows of `conversation` for `asker`: a recent lookup's pages if they can serve it, else a new lookup's. */
  async find(conversation: string, asker: Asker, look: Look): Promise<PostedMessages> {
    for (;;) {
      const lookup = this.latest.get(conversation);
      if (lookup && serves(lookup, asker)) {
        try {
          return await lookup.pages;
        } catch (error) {
          // Slack's answer (a refusal, a turn to wait for) is every asker's; anything else (the stop of
          // the run that looked) was its own: this row looks again.
          if (slacksAnswer(error)) throw error;
          continue;
        }
      }
      if (lookup && !lookup.over) {
        lookup.wanting.push(asker.since);
        await lookup.ended;
        continue;
      }
      return this.begin(conversation, Math.min(asker.since, ...(lookup?.wanting ?? [])), look).pages;
    }
  }

  private begin(conversation: string, since: number, look: Look): Lookup {
    // Taken before the first read leaves: no page can have been read before it.
    const begunAt = Date.now();
    const pages = look(since, `${this.shard} lookup ${conversation}`);
    const lookup: Lookup = {
      since,
      begunAt,
      pages,
      ended: Promise.resolve(),
      over: false,
      failed: false,
      wanting: [],
    };
    // The first reaction to `pages`: `over` and `failed` are set before any asker awaiting them resumes.
    lookup.ended = lookup.pages.then(
      () => {
        lookup.over = true;
      },
      () => {
        lookup.over = lookup.failed = true;
      },
    );
    this.latest.set(conversation, lookup);
    return lookup;
  }
}

/**
 * Whether `lookup`'s pages can tell whether `asker`'s posts are in Slack: it read from no later
 * than the asker's uncertainty, it began after the asker's claim, and it is recent.
 */
function serves(lookup: Lookup, asker: Asker, now = Date.now()): boolean {
  return (
    !lookup.failed &&
    lookup.since <= asker.since &&
    // A page proves a post absent only if read after its attempt ended, and a row's earlier attempts all ended before its claim.
    lookup.begunAt >= asker.claimedAt &&
    now - lookup.begunAt <= SHARED_LOOKUP_MS
  );
}

/** What Slack answered the lookup's reads (or when they may go): the same for every row that asked. */
function slacksAnswer(error: unknown): boolean {
  return error instanceof SlackApiError || error instanceof SlackUnreachable || error instanceof Paced;
}
