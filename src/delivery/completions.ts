import type { Outbox } from "../recording/outbox";

/** A completion waits at most this long for another write to share its commit. */
export const COMPLETION_WAIT_MS = 10;

interface Waiting {
  key: string;
  token: string;
  settle(completed: boolean): void;
  fail(error: unknown): void;
}

/**
 * Fenced completions (the DELETE of a delivered row), written together with the shard's next
 * write instead of each in a turn of its own. Every turn that writes ends in a commit of its
 * own, and locally that costs several times a statement in it (`npm run commit-cost`), so
 * a delivered row's completion rides on the next ingest or step checkpoint, or is written after
 * COMPLETION_WAIT_MS at most. Until then the row stays leased: no one else claims it, and if the
 * instance dies first the sweep delivers it again once the lease runs out (at least once).
 */
export class Completions {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly outbox: Outbox,
    private readonly waitMs = COMPLETION_WAIT_MS,
    /** Rows someone waits on (a relayed command's backend response, given to the edge once completed): written at once. */
    private readonly awaited: (key: string) => boolean = () => false,
  ) {}

  /** Deletes the delivered row if `token` still holds its lease, with the next write; true if it did. */
  complete(key: string, token: string): Promise<boolean> {
    const completed = new Promise<boolean>((settle, fail) => {
      this.waiting.push({ key, token, settle, fail });
      this.timer ??= setTimeout(this.flush, this.waitMs);
    });
    if (this.awaited(key)) this.flush();
    return completed;
  }

  /**
   * Writes the waiting completions now, in this turn: called by whatever writes next (outside
   * any transaction of its own, so no rollback can undo a completion already reported).
   */
  readonly flush = (): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    this.waiting = [];
    for (const completion of waiting) {
      try {
        completion.settle(this.outbox.complete(completion.key, completion.token));
      } catch (error) {
        completion.fail(error);
      }
    }
  };
}
