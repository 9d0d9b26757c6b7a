import type { Checkpoints } from "../recording/outboxSteps";

type Answer = Record<string, unknown>;

/** A step's result may wait in memory for its attempt's next write only up to this size (a post's answer is a few KB). */
export const KEPT_RESULT_BYTES_MAX = 16_384;

/**
 * One running `step()` as its attempt's posts see it (attemptPosts.ts): whether its function is
 * still in its synchronous start, the Slack calls made while it runs, and its first post. A step
 * whose only work was one post that a lookup can find is checkpointed by the post itself
 * (docs/reference/app-api.md "step"): `soleFindablePost` says which.
 */
export class RunningStep {
  /** Until the function returned its promise: a call made then came before anything it awaited (a model's answer, say). */
  private starting = true;
  /** Calls started while it ran: its post's and any other's (a call of code running beside it included). */
  private calls = 0;
  private first?: { findable: boolean; answer?: Answer };

  constructor(readonly name: string) {}

  /** The step's function returned its promise. */
  begun(): void {
    this.starting = false;
  }

  /** A Slack call of the attempt started while the step ran. */
  called(): void {
    this.calls++;
  }

  /**
   * A post starts in the step, `findable` by a lookup; returns where its answer goes when it is
   * the step's first act (nothing called, nothing awaited before it), else undefined.
   */
  posting(findable: boolean): ((answer: Answer) => void) | undefined {
    const first = this.starting && this.calls === 0;
    this.calls++;
    if (!first) return undefined;
    const post: { findable: boolean; answer?: Answer } = { findable };
    this.first = post;
    return (answer) => {
      post.answer = answer;
    };
  }

  /** The answer of the step's one call, a findable post made first, if that was all it called. */
  soleFindablePost(): Answer | undefined {
    return this.calls === 1 && this.first?.findable ? this.first.answer : undefined;
  }
}

/** Who is told which step a run is in (attemptPosts.ts names a post by its step). */
export interface StepScopes {
  /** A step's function starts running. */
  enter(name: string): RunningStep;
  /** It ended, however. */
  leave(step: RunningStep): void;
  /** A step's result is checkpointed: what it posted is known. */
  recorded(name: string): void;
  /** A step whose one findable post checkpoints it: its result, kept for the attempt's next write. */
  keep(name: string, result: string): void;
}

/**
 * The steps of one attempt as its posts see them (`StepScopes`, for stepCheckpoints.ts): those
 * running now, the steps with a post that may be in Slack and that no checkpoint records, and
 * the results kept for the attempt's next write.
 */
export class AttemptSteps implements StepScopes {
  private readonly running: RunningStep[] = [];
  private readonly unrecordedPosts = new Set<string>();
  private readonly kept = new Map<string, string>();

  enter(name: string): RunningStep {
    const step = new RunningStep(name);
    this.running.push(step);
    return step;
  }

  leave(step: RunningStep): void {
    const at = this.running.lastIndexOf(step);
    if (at >= 0) this.running.splice(at, 1);
  }

  recorded(name: string): void {
    this.unrecordedPosts.delete(name);
  }

  keep(name: string, result: string): void {
    this.kept.set(name, result);
  }

  /** The kept results `fitting` lets the settle write (outboxSteps.ts `fitting`): their posts are recorded by it. */
  checkpoints(fitting: (kept: Checkpoints) => Checkpoints): Checkpoints {
    const written = fitting(this.kept);
    for (const name of written.keys()) this.recorded(name);
    return written;
  }

  /** A call of the attempt starts (other than a named post): every step running did more than post. */
  called(): void {
    for (const step of this.running) step.called();
  }

  /** The step a post is made in: undefined outside steps, null while several run (whose it is cannot be told). */
  current(): RunningStep | undefined | null {
    return this.running.length > 1 ? null : this.running[0];
  }

  /** A post of step `scope` ("" outside steps) may be in Slack. */
  posted(scope: string): void {
    this.unrecordedPosts.add(scope);
  }

  /** Whether a post may be in Slack that no checkpoint records. */
  unrecorded(): boolean {
    return this.unrecordedPosts.size > 0;
  }
}
