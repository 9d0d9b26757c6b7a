/**
 * A Map that keeps at most `max` entries, oldest first, where the oldest is the one set least
 * recently. Setting past `max` drops the oldest; with `expired`, the oldest entries that are
 * expired when a key is set go first, so a map whose entries age out holds about its live ones.
 * For what an isolate remembers per channel, workspace or request: a Durable Object isolate
 * lives long and has 128 MB, so nothing it keeps may grow with traffic.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly max: number,
    private readonly expired?: (value: V, now: number) => boolean,
  ) {
    if (!(max >= 1)) throw new RangeError(`BoundedMap: max must be at least 1, not ${max}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Sets `key` as the newest entry, then drops expired (at `now`) and surplus entries from the oldest end. */
  set(key: K, value: V, now = Date.now()): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.expired)
      for (const [oldest, kept] of this.entries) {
        if (!this.expired(kept, now)) break;
        this.entries.delete(oldest);
      }
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  /** The entries, oldest first. Set nothing while iterating: a key set moves to the end, and would come again. */
  all(): MapIterator<[K, V]> {
    return this.entries.entries();
  }
}
