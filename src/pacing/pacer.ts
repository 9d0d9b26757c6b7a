import { BoundedMap } from "../platform/boundedMap";
import { RetryAfterMemory } from "../platform/retryAfter";
import type { Pace } from "./tiers";

/** Reservations older than this are forgotten (their holder gave up: parked, discarded, evicted). */
const RESERVATION_TTL_MS = 10 * 60_000;
/** Rate keys (and kept slots) remembered per pacer; beyond it the least recently used are forgotten. */
export const MAX_PACED_RATE_KEYS = 10_000;
/** A pace's `perMinute` is counted over this: a second over Slack's minute, since a call may reach Slack later than it left. */
export const PACED_MINUTE_MS = 61_000;

/**
 * Paces calls per rate key by reservation (GCRA, the generic cell rate algorithm): each call is
 * given the earliest slot its rate key allows after every slot already given, so calls go in the
 * order they asked, at `perSecond` on average, at most `burst` at once. A holder (an outbox row)
 * that was given a slot in the future keeps it: when it comes back, it goes in its turn instead
 * of queueing behind later callers. In memory only: after an eviction, rows come back in the
 * order they were postponed and ask again. 429s move a rate key's next slot to Retry-After
 * (`blockUntil`), kept in a Retry-After memory, so pacing and Slack's own answer agree. A pace
 * with `perMinute` also keeps its rate key's slots of the last minute and gives no slot that would
 * make more than that in one (GCRA alone allows `burst` more). Each memory keeps at most
 * MAX_PACED_RATE_KEYS entries, and forgets those in the past as new ones come.
 */
export class Pacer {
  /** Per rate key: the theoretical arrival time of the next call (GCRA's TAT). */
  private readonly next = new BoundedMap<string, number>(MAX_PACED_RATE_KEYS, (tat, now) => tat < now);
  /** Slots given to holders that have not used them yet, by `rateKey|holder`. */
  private readonly held = new BoundedMap<string, number>(MAX_PACED_RATE_KEYS, (slot, now) => slot < now - RESERVATION_TTL_MS);
  /** Per rate key: Slack's last Retry-After, as a time. */
  private readonly blocked = new RetryAfterMemory(MAX_PACED_RATE_KEYS);
  /** Per rate key whose pace has `perMinute`: the slots given within the last minute, in order. */
  private readonly minutes = new BoundedMap<string, number[]>(
    MAX_PACED_RATE_KEYS,
    (slots, now) => (slots.at(-1) ?? 0) <= now - PACED_MINUTE_MS,
  );

  /** The time (ms) `holder` may call under `rateKey`: now or later, never earlier than a slot given before it. */
  reserve(rateKey: string, pace: Pace, holder: string, now: number): number {
    const heldKey = `${rateKey}|${holder}`;
    const held = this.held.get(heldKey);
    if (held !== undefined) {
      // Its turn has come: the slot is used now.
      if (held <= now) this.held.delete(heldKey);
      return held;
    }
    const interval = 1000 / pace.perSecond;
    const tat = Math.max(this.next.get(rateKey) ?? now, now);
    // Up to `burst` calls may go at once: a slot may lie (burst − 1) intervals before the TAT —
    // but none before a Retry-After Slack gave.
    let slot = Math.max(now, tat - (pace.burst - 1) * interval, this.blocked.blockedUntil(rateKey, now) ?? 0);
    if (pace.perMinute !== undefined) slot = this.withinMinute(rateKey, pace.perMinute, slot, now);
    this.next.set(rateKey, Math.max(tat, slot) + interval, now);
    if (slot > now) {
      this.held.set(heldKey, slot, now);
    }
    return slot;
  }

  /** The earliest slot from `slot` on that keeps `rateKey` within `perMinute` in any minute; it is recorded as given. */
  private withinMinute(rateKey: string, perMinute: number, slot: number, now: number): number {
    const given = (this.minutes.get(rateKey) ?? []).filter((at) => at > now - PACED_MINUTE_MS);
    // The slot goes once the perMinute-th latest slot given has left the minute.
    const turn = given.length >= perMinute ? Math.max(slot, given[given.length - perMinute]! + PACED_MINUTE_MS) : slot;
    given.push(turn);
    given.sort((a, b) => a - b);
    this.minutes.set(rateKey, given.slice(-perMinute), now);
    return turn;
  }

  /** The holder called (or will not): its slot is spent. */
  spend(rateKey: string, holder: string): void {
    this.held.delete(`${rateKey}|${holder}`);
  }

  /**
   * Slack answered `holder`'s call under `rateKey` 429 with Retry-After: nothing goes before
   * `until`. Slots already given move back by as much, in their order, and the holder — whose
   * turn it was — goes first at `until`: the rate key's order survives the 429. Returns the holder's slot.
   */
  blockUntil(rateKey: string, until: number, holder: string, now: number): number {
    const delay = Math.max(0, until - now);
    const prefix = `${rateKey}|`;
    const moved: Array<[string, number]> = [];
    for (const [key, slot] of this.held.all()) if (key.startsWith(prefix)) moved.push([key, slot + delay]);
    for (const [key, slot] of moved) this.held.set(key, slot, now);
    // The minute's slots not yet used move back with them, and the refused call's retry counts
    // too (its refused try stays counted: Slack may have counted it).
    const given = this.minutes.get(rateKey);
    if (given)
      this.minutes.set(
        rateKey,
        [...given.map((at) => (at > now ? at + delay : at)), until].sort((a, b) => a - b),
        now,
      );
    const tat = this.next.get(rateKey);
    if (tat !== undefined) this.next.set(rateKey, Math.max(tat + delay, until), now);
    this.blocked.remember(rateKey, until, now);
    this.held.set(`${prefix}${holder}`, until, now);
    return until;
  }
}
