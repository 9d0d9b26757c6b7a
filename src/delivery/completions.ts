import type { Outbox } from "../recording/outbox";
import type { Checkpoints } from "../recording/outboxSteps";

/** A completion waits at most this long for another write to share its commit. */
export const COMPLETION_WAIT_MS = 10;
/** A step's checkpoint waits at most this long (its run waits with it): under load an ingest comes sooner. */
export const CHECKPOINT_WAIT_MS = 2;

interface Waiting {
  write(): unknown;
  settle(value: unknown): void;
  fail(error: unknown): void;
}

/**
 * Writes that share a commit: fenced completions (the UPDATE of a delivered row to done) and step
 * checkpoints, written together in one turn instead of each in a turn of its own. Every turn
 * that writes ends in a commit of its own, and locally that costs several times a statement in
 * it (`npm run commit-cost`), so:
 * - a delivered row's completion rides on the shard's next write (an ingest, a checkpoint), or
 *   is written after COMPLETION_WAIT_MS at most. Until then the row stays leased: no one else
 *   claims it, and if the instance dies first the sweep delivers it again once the lease runs
 *   out (at least once);
 * - a step's checkpoint is written `soon`: with the next write, or after CHECKPOINT_WAIT_MS at
 *   most, so under load it shares the commit of an ingest or of other runs' checkpoints. The run
 *   goes on only once it is written, and the output gate holds the run's next call until it is
 *   durable — as when each was written in a turn of its own.
 */
export class Completions {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (Date.now's time): a write wanting it no later reuses it. */
  private timerDue = 0;

  constructor(
    private readonly outbox: Outbox,
    private readonly waitMs = COMPLETION_WAIT_MS,
    /** Rows someone waits on (a relayed command's backend response, given to the edge once completed): written at once. */
    private readonly awaited: (key: string) => boolean = () => false,
  ) {}

  /**
   * Marks the delivered row done with `story` (its attempt's) if `token` still holds its lease, with
   * the next write; true if it did. `checkpoints`: the step results its attempt kept (a post that is
   * its own checkpoint: stepCheckpoints.ts), written by the same UPDATE — so a done row's story names
   * that post — asked for when the write is made.
   */
  complete(key: string, token: string, story: string | null = null, checkpoints?: () => Checkpoints): Promise<boolean> {
    const completed = this.queue(() => this.outbox.complete(key, token, story, Date.now(), checkpoints?.()), false);
    if (this.awaited(key)) this.flush();
    return completed;
  }

  /** Runs `write` (a fenced checkpoint) soon, in a turn other writes share; resolves with what it returned. */
  soon<T>(write: () => T): Promise<T> {
    return this.queue(write, true);
  }

  private queue<T>(write: () => T, soon: boolean): Promise<T> {
    const written = new Promise<T>((settle, fail) => {
      this.waiting.push({ write, settle: settle as (value: unknown) => void, fail });
    });
    // A timer already armed to fire in time serves: a flush by the next write leaves it armed
    // (it then fires on nothing), which costs less than a clear and a set for every batch.
    const waitMs = soon ? CHECKPOINT_WAIT_MS : this.waitMs;
    const due = Date.now() + waitMs;
    if (this.timer === undefined || this.timerDue > due) {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = setTimeout(this.fired, waitMs);
      this.timerDue = due;
    }
    return written;
  }

  private readonly fired = (): void => {
    this.timer = undefined;
    this.flush();
  };

  /**
   * Writes everything waiting now, in this turn: called by whatever writes next (outside any
   * transaction of its own, so no rollback can undo a completion already reported).
   */
  readonly flush = (): void => {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    this.waiting = [];
    for (const write of waiting) {
      try {
        write.settle(write.write());
      } catch (error) {
        write.fail(error);
      }
    }
  };
}
