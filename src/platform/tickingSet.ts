/**
 * Entries looked at by ONE interval timer, which runs only while there are entries: for what a
 * shard checks on many concurrent things at once (leases to renew, calls past their deadline),
 * where a timer per thing costs a set and a clear on every one of them. `visit` returns whether
 * the entry stays. A Durable Object's timers live and die with it, so must what they check.
 */
export class TickingSet<T> {
  private readonly entries = new Set<T>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticked = 0;

  constructor(
    private readonly periodMs: number,
    private readonly visit: (entry: T) => boolean,
  ) {}

  add(entry: T): void {
    this.entries.add(entry);
    this.timer ??= setInterval(this.tick, this.periodMs);
  }

  delete(entry: T): void {
    this.entries.delete(entry);
    if (this.entries.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Entries looked at now (tests, stats). */
  get size(): number {
    return this.entries.size;
  }

  /** Ticks so far: time as the timer counts it, every `periodMs` while there are entries. */
  get ticks(): number {
    return this.ticked;
  }

  /** Visits every entry now (the timer's tick; tests call it directly). */
  readonly tick = (): void => {
    this.ticked++;
    for (const entry of this.entries) if (!this.visit(entry)) this.delete(entry);
  };
}
