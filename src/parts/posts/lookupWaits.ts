import { BoundedMap } from "../../platform/boundedMap";

/** Rows a shard remembers waiting for a lookup; the least recently set are forgotten first. */
const MAX_WAITING_ROWS = 10_000;
/** A wait this old is forgotten: a row whose reads failed for so long counts its wait anew. */
const FORGET_AFTER_MS = 60 * 60_000;

/**
 * How long each uncertain row of a shard has waited for the lookup of its posts, counted from its
 * first try across its attempts (a turn in the pace or a 429 postpones the row) and anew after a
 * read that failed (a 5xx: the row is retried with backoff, and that is no wait for a turn): a
 * lookup whose turn comes past SLACK_HISTORY_MAX_WAIT_MS is given up and the post sent again
 * (delivery/attemptPosts.ts). In memory: after an eviction, a row's wait counts from its next try.
 */
export class LookupWaits {
  private readonly firstTries = new BoundedMap<string, number>(MAX_WAITING_ROWS, (at, now) => at < now - FORGET_AFTER_MS);

  constructor(readonly maxWaitMs: number) {}

  /** When `key`'s wait for its lookup ends: its first try (now, if this is it) plus the bound. */
  deadline(key: string, now = Date.now()): number {
    let first = this.firstTries.get(key);
    if (first === undefined) {
      first = now;
      this.firstTries.set(key, first, now);
    }
    return first + this.maxWaitMs;
  }

  /** `key`'s lookup was made, refused for good or given up: a later uncertainty of the row waits anew. */
  over(key: string): void {
    this.firstTries.delete(key);
  }
}
