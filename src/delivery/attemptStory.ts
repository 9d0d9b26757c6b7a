import type { CallStory, AttemptStory as Written } from "../rpc/eventStories";
import type { CallDetail } from "../slack/client";

/** Calls one attempt's story keeps (the first ones): a run that loops on Slack keeps its row small. */
export const KEPT_CALLS = 20;

/**
 * One attempt's story, kept in memory while it runs (docs/design.md "An event's story"): when it
 * began and each Slack call it made. Written only by the UPDATE that settles the row anyway — a
 * retry's, a park's, a stop's, a completion's (recording/outboxRows.ts appendedStory) — never a write of its own.
 */
export class AttemptStory {
  readonly start = Date.now();
  private readonly calls: CallStory[] = [];
  private more = 0;

  /** A call of the attempt answered (or failed to): the client's `observe`. */
  call(method: string, ok: boolean, error?: string, detail?: CallDetail): void {
    this.kept({ method, ok, ...(error === undefined ? {} : { error }), ...(detail ?? { ms: 0 }) });
  }

  /** A post answered by a lookup (the message an earlier attempt posted) instead of being made. */
  found(method: string, ts: string): void {
    this.kept({ method, ok: true, ts, ms: 0, foundByLookup: true });
  }

  private kept(call: CallStory): void {
    if (this.calls.length >= KEPT_CALLS) this.more++;
    else this.calls.push(call);
  }

  /** The attempt as its row keeps it (JSON), settled with `outcome` because of `error` (none when it was done). */
  written(outcome: Written["outcome"], error?: string): string {
    const story: Written & { moreCalls?: number } = {
      start: this.start,
      end: Date.now(),
      outcome,
      ...(error === undefined ? {} : { error }),
      calls: this.calls,
    };
    if (this.more > 0) story.moreCalls = this.more;
    return JSON.stringify(story);
  }
}
