import { BoundedMap } from "../platform/boundedMap";
import type { DeliveryListener } from "../platform/deliveryEvents";
import { settleWithin } from "../platform/settleWithin";
import type { BackendResponse } from "../rpc/shard";

/** Backend responses nobody collected are forgotten after this long (the edge gave up or died). */
const FORGET_AFTER_MS = 30_000;
/** Backend responses awaited at most; beyond it the oldest are forgotten (their edge waits out RELAY_SYNC_MS). */
export const MAX_AWAITED = 10_000;

interface Awaited {
  since: number;
  /** The backend response the attempt read, kept until its row is settled. */
  response?: BackendResponse;
  /** Resolved once the row's first attempt is settled: the backend response if the row was completed, else null. */
  settled: Promise<BackendResponse | null>;
  resolve(response: BackendResponse | null): void;
}

/**
 * The shard's side of synchronous backend responses. A command's or interaction's relay row, leased
 * to the immediate attempt at ingest, is `expect`ed here; the attempt `offer`s what the backend
 * responded; the delivery events say whether the row was completed (fenced) — only then is the
 * backend response given to the edge, which `collect`s it within RELAY_SYNC_MS. The attempt itself is
 * never cut short: a backend slower than that still gets its one attempt, answered with an
 * empty ack to Slack, and no second delivery unless that attempt fails.
 */
export class BackendResponses {
  private readonly awaited = new BoundedMap<string, Awaited>(MAX_AWAITED, (entry, now) => now - entry.since > FORGET_AFTER_MS);

  expect(key: string, now: number): void {
    let resolve: (response: BackendResponse | null) => void = () => {};
    const settled = new Promise<BackendResponse | null>((done) => (resolve = done));
    this.awaited.set(key, { since: now, settled, resolve }, now);
  }

  /** Whether an attempt of `key` should read the backend response for the edge. */
  wants(key: string): boolean {
    return this.awaited.has(key);
  }

  offer(key: string, response: BackendResponse): void {
    const entry = this.awaited.get(key);
    if (entry) entry.response = response;
  }

  /** The delivery-events subscriber: a backend response counts only once its row is completed. */
  readonly settle: DeliveryListener = (event) => {
    const entry = this.awaited.get(event.key);
    if (!entry) return;
    entry.resolve(event.type === "delivered" ? (entry.response ?? null) : null);
  };

  /** The backend response, if its row is completed within `waitMs`; else null. Collected once. */
  async collect(key: string, waitMs: number): Promise<BackendResponse | null> {
    const entry = this.awaited.get(key);
    if (!entry) return null;
    try {
      return await settleWithin(entry.settled, waitMs, () => null);
    } finally {
      this.awaited.delete(key);
    }
  }
}
