import { describeError, log } from "../platform/log";
import { minuteOf } from "../platform/minutes";
import type { CoordinatorEnv } from "../rpc/env";
import { watchStub } from "../rpc/shardStub";
import type { AckTally } from "../rpc/watch";
import { addToTally, causeOf, mergeTally, SUCCESS, type Verification } from "../watch/ackWindow";

/** A failure is sent to the watch this soon (the guard's first alert is due within 60 s). */
const FAILURE_FLUSH_MS = 1_000;
/** Successes alone wait this long, so the hot path adds no write per request, only one per flush. */
const SUCCESS_FLUSH_MS = 10_000;

/** This Worker instance's acks not yet counted by the watch. */
let pending: AckTally = {};
/** When the earliest scheduled flush runs, or null. */
let flushAt: number | null = null;

/**
 * Counts one ack the edge gave Slack, for the guard against Slack's auto-disable
 * (docs/guides/operations.md "Alerts"), under its status when the request's signature verified,
 * else apart. Counts stay in this instance's memory and go to the watch in one call per flush,
 * after the ack, within `waitUntil`: a second after a failure, ten after successes alone.
 * An instance evicted before its flush loses at most those seconds of counts.
 */
export function tallyAck(
  status: number,
  verification: Verification,
  env: CoordinatorEnv,
  ctx: Pick<ExecutionContext, "waitUntil">,
  /** Refused by an overloaded shard (503, nothing recorded): a cause of its own. */
  overloaded = false,
): void {
  const now = Date.now();
  const cause = causeOf(status, verification, overloaded);
  addToTally(pending, minuteOf(now), cause);
  const delayMs = cause === SUCCESS ? SUCCESS_FLUSH_MS : FAILURE_FLUSH_MS;
  if (flushAt !== null && flushAt <= now + delayMs) return;
  flushAt = now + delayMs;
  ctx.waitUntil(flushAfter(env, delayMs));
}

async function flushAfter(env: CoordinatorEnv, delayMs: number): Promise<void> {
  await new Promise((later) => setTimeout(later, delayMs));
  if (Object.keys(pending).length === 0) return;
  const tally = pending;
  pending = {};
  flushAt = null;
  try {
    await watchStub(env.SHARD).countAnswers(tally);
  } catch (error) {
    // Kept for the next flush rather than lost (what has left the window dropped); the next ack schedules it.
    mergeTally(pending, tally, Date.now());
    log("warn", "answer counts not sent to the watch; kept for the next flush", { error: describeError(error) });
  }
}
