/** Something that may need the shard's alarm: returns when (ms since the epoch), or null for never. */
export type WakeSource = (now: number) => number | null;

/**
 * The shard's one alarm, shared by every source of work (due or lease-expired outbox rows,
 * receipts to prune, …), as cloudflare/actors' Alarms helper does: each part registers a source
 * that says when it next needs the shard, and the alarm is set for the earliest. Keeps a mirror of the scheduled
 * time so the hot path pays for `setAlarm` (one billed row) only when it moves the alarm earlier.
 */
export class WakeUps {
  private scheduledAt: number | null = null;
  private readonly sources: WakeSource[];
  /** setAlarm calls, each billed as one row written. */
  alarmsSet = 0;

  constructor(
    private readonly storage: DurableObjectStorage,
    sources: readonly WakeSource[] = [],
  ) {
    this.sources = [...sources];
  }

  /** A part's source of work, asked at each re-arm (after an alarm). */
  register(source: WakeSource): void {
    this.sources.push(source);
  }

  /** Reads the alarm the shard already has (constructor, under blockConcurrencyWhile). */
  async load(): Promise<void> {
    this.scheduledAt = await this.storage.getAlarm();
  }

  /** The alarm that woke us is consumed: getAlarm() reads null inside alarm(). */
  consumed(): void {
    this.scheduledAt = null;
  }

  /** Moves the alarm earlier (or sets one); never later — an early wake-up just re-arms. */
  arm(at: number | null): void {
    if (at === null || (this.scheduledAt !== null && this.scheduledAt <= at)) return;
    this.scheduledAt = at;
    this.alarmsSet++;
    // No await: the alarm write commits atomically with the surrounding writes.
    void this.storage.setAlarm(at);
  }

  /**
   * Arms for the earliest time any source needs the shard (after an alarm has done its work),
   * but not before `notBefore`; nothing is armed when no source needs the shard.
   */
  rearm(now = Date.now(), notBefore = now): void {
    let earliest: number | null = null;
    for (const source of this.sources) {
      const at = source(now);
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    this.arm(earliest === null ? null : Math.max(earliest, notBefore));
  }
}
