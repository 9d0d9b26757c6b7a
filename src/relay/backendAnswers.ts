import { BoundedMap } from "../platform/boundedMap";
import type { DeliveryListener } from "../platform/deliveryEvents";
import { settleWithin } from "../platform/settleWithin";
import type { BackendAnswer } from "../rpc/shard";

/** Answers nobody collected are forgotten after this long (the edge gave up or died). */
const FORGET_AFTER_MS = 30_000;
/** Answers awaited at most; beyond it the oldest are forgotten (their edge waits out RELAY_SYNC_MS). */
export const MAX_AWAITED = 10_000;

interface Awaited {
  since: number;
  /** The answer the attempt read, kept until its row is settled. */
  answer?: BackendAnswer;
  /** Resolved once the row's first attempt is settled: the answer if the row was completed, else null. */
  settled: Promise<BackendAnswer | null>;
  resolve(answer: BackendAnswer | null): void;
}

/**
 * The shard's side of synchronous relay answers. A command's or interaction's relay row, leased
 * to the immediate attempt at ingest, is `expect`ed here; the attempt `offer`s what the backend
 * answered; the delivery events say whether the row was completed (fenced) — only then is the
 * answer given to the edge, which `collect`s it within RELAY_SYNC_MS. The attempt itself is
 * never cut short: a backend slower than that still gets its one attempt, answered with an
 * empty ack to Slack, and no second delivery unless that attempt fails.
 */
export class BackendAnswers {
  private readonly awaited = new BoundedMap<string, Awaited>(MAX_AWAITED, (entry, now) => now - entry.since > FORGET_AFTER_MS);

  expect(key: string, now: number): void {
    let resolve: (answer: BackendAnswer | null) => void = () => {};
    const settled = new Promise<BackendAnswer | null>((done) => (resolve = done));
    this.awaited.set(key, { since: now, settled, resolve }, now);
  }

  /** Whether an attempt of `key` should read the backend's answer for the edge. */
  wants(key: string): boolean {
    return this.awaited.has(key);
  }

  offer(key: string, answer: BackendAnswer): void {
    const entry = this.awaited.get(key);
    if (entry) entry.answer = answer;
  }

  /** The delivery-events subscriber: an answer counts only once its row is completed. */
  readonly settle: DeliveryListener = (event) => {
    const entry = this.awaited.get(event.key);
    if (!entry) return;
    entry.resolve(event.type === "delivered" ? (entry.answer ?? null) : null);
  };

  /** The backend's answer, if its row is completed within `waitMs`; else null. Collected once. */
  async collect(key: string, waitMs: number): Promise<BackendAnswer | null> {
    const entry = this.awaited.get(key);
    if (!entry) return null;
    try {
      return await settleWithin(entry.settled, waitMs, () => null);
    } finally {
      this.awaited.delete(key);
    }
  }
}
