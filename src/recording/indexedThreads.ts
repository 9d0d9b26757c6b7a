/** Threads remembered as having indexed turns; past it, the memory is given up and every thread is read. */
const THREADS_KEPT = 100_000;

/**
 * The threads of a shard that may have an indexed turn (one with a `turn_seq`, outboxTurns.ts)
 * pending: noted whenever one is written — enqueued after a lead, woken behind one, replayed, or
 * found by the outbox's walk (outboxMemory.ts) — and forgotten when a read of the turns index found
 * none there. Once the walk is complete, a thread not noted has none: no statement need ask.
 * Conservative both ways: a rolled-back write leaves a thread noted (read again, then forgotten),
 * and a memory grown past THREADS_KEPT is given up (every thread is read, as before the walk).
 */
export class IndexedThreads {
  private readonly threads = new Set<string>();
  private givenUp = false;

  constructor(private readonly kept = THREADS_KEPT) {}

  /** An indexed turn of `conversation` may be pending now. */
  noted(conversation: string): void {
    if (this.givenUp) return;
    this.threads.add(conversation);
    if (this.threads.size <= this.kept) return;
    this.givenUp = true;
    this.threads.clear();
  }

  /** A read of the turns index found no indexed turn of `conversation` pending. */
  none(conversation: string): void {
    this.threads.delete(conversation);
  }

  /** Whether `conversation` surely has no indexed turn pending (the caller knows the walk is complete). */
  free(conversation: string): boolean {
    return !this.givenUp && !this.threads.has(conversation);
  }
}
