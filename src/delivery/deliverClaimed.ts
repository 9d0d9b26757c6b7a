import type { Effect } from "../app/types";
import type { Settings } from "../config";
import { log } from "../log";
import type { ClaimedRow, Outbox } from "../shard/outbox";
import { retryDelayMs } from "./backoff";
import type { Verdict } from "./classify";
import { mapConcurrent } from "./mapConcurrent";
import type { RateLimits } from "./rateLimits";

export interface DeliveryCounters {
  delivered: number;
  retried: number;
  parked: number;
  postponed: number;
  /** Settles refused by the fence: the lease ran out mid-attempt and another claimer owns the row. */
  fenceRejections: number;
}

export function newCounters(): DeliveryCounters {
  return { delivered: 0, retried: 0, parked: 0, postponed: 0, fenceRejections: 0 };
}

export interface Courier {
  outbox: Outbox;
  settings: Settings;
  rateLimits: RateLimits;
  counters: DeliveryCounters;
  shard: string;
  /** Performs one row's effect once (the shard binds the app, client and steps). Never throws. */
  perform(effect: Effect, row: ClaimedRow, token: string): Promise<Verdict>;
  /** Called with the time a row becomes due again, so the shard can move its alarm earlier. */
  wakeAt(at: number): void;
}

/**
 * Performs every row leased to `token`, concurrently within the outgoing-connection limit,
 * then settles each one fenced by the token. The sweep (alarm) and the immediate attempt
 * after an ingest both deliver through here: one code path, two triggers.
 */
export async function deliverClaimed(courier: Courier, token: string, rows: readonly ClaimedRow[]): Promise<void> {
  await mapConcurrent(rows, courier.settings.delivery.concurrency, (row) => deliverOne(courier, token, row));
}

async function deliverOne(courier: Courier, token: string, row: ClaimedRow): Promise<void> {
  const { outbox, rateLimits, counters } = courier;
  const key = row.idempotency_key;
  const blockedUntil = rateLimits.blockedUntil(row.workspace, row.rate_key, Date.now());
  if (blockedUntil !== undefined) {
    if (outbox.postpone(key, token, blockedUntil)) {
      counters.postponed++;
      courier.wakeAt(blockedUntil);
    } else fenceRejected(courier, key, "postpone");
    return;
  }

  const verdict = await whileRenewingLease(courier, token, key, () => courier.perform(JSON.parse(row.payload) as Effect, row, token));
  // The await above opened the input gate: the row may have been re-leased meanwhile,
  // so every settle below is fenced by our token rather than trusting what we read.
  settle(courier, token, row, verdict);
}

/**
 * Keeps the row's lease alive while its attempt is running, so a long run (an LLM call in a
 * step, several sequential Slack calls) is not reclaimed and performed twice. A Slack call
 * ends within DELIVERY_TIMEOUT_MS, well inside half a lease, so plain effects never renew.
 * Stopping the renewal is not a release: the lease still ends only by expiry or a fenced
 * settle. If the DO dies, the timer dies with it and the lease runs out as designed.
 */
async function whileRenewingLease<T>(courier: Courier, token: string, key: string, attempt: () => Promise<T>): Promise<T> {
  const { leaseMs } = courier.settings.delivery;
  const timer = setInterval(() => {
    if (!courier.outbox.renewLease(key, token, Date.now() + leaseMs)) clearInterval(timer);
  }, leaseMs / 2);
  try {
    return await attempt();
  } finally {
    clearInterval(timer);
  }
}

function settle(courier: Courier, token: string, row: ClaimedRow, verdict: Verdict): void {
  const { outbox, settings, rateLimits, counters, shard } = courier;
  const key = row.idempotency_key;
  const now = Date.now();
  const attempts = row.attempts + 1;
  const fields = { shard, key, attempts };

  if (verdict.outcome === "lease_lost") {
    fenceRejected(courier, key, "step");
    return;
  }
  if (verdict.outcome === "delivered") {
    if (outbox.complete(key, token)) counters.delivered++;
    else fenceRejected(courier, key, "complete");
    return;
  }
  const exhausted = verdict.outcome === "retry" && attempts >= settings.delivery.backoff.maxAttempts;
  if (verdict.outcome === "park" || exhausted) {
    const reason = exhausted ? `attempts exhausted; last: ${verdict.reason}` : verdict.reason;
    if (outbox.park(key, token, attempts, reason, now)) {
      // Step checkpoints stay: a replayed run resumes after its completed steps.
      counters.parked++;
      log("warn", "effect parked", { ...fields, reason });
    } else fenceRejected(courier, key, "park");
    return;
  }
  const nextAt = now + retryDelayMs(settings.delivery.backoff, attempts, verdict.retryAfterMs);
  if (verdict.retryAfterMs !== undefined) rateLimits.remember(row.workspace, row.rate_key, now + verdict.retryAfterMs);
  if (outbox.retryLater(key, token, attempts, nextAt, verdict.reason)) {
    counters.retried++;
    courier.wakeAt(nextAt);
    log("info", "effect will be retried", { ...fields, reason: verdict.reason, inMs: nextAt - now });
  } else fenceRejected(courier, key, "retry");
}

function fenceRejected(courier: Courier, key: string, step: string): void {
  courier.counters.fenceRejections++;
  log("warn", "fence rejected a settle: the lease expired mid-attempt; raise LEASE_MS", { shard: courier.shard, key, step });
}
