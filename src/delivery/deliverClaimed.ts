import type { Effect } from "../app/contract";
import { readEffect } from "../effects/registry";
import { retryDelayMs } from "../platform/backoff";
import type { DeliveryEvent } from "../platform/deliveryEvents";
import { type Settlement, settlementOf } from "../platform/errors";
import { type InvocationMeter, SPENT_RESUME_MS } from "../platform/invocationMeter";
import { describeError, log } from "../platform/log";
import { mapConcurrent } from "../platform/mapConcurrent";
import { workspaceRateKey } from "../platform/retryAfter";
import type { ClaimedRow } from "../recording/outbox";
import { NO_CHECKPOINTS } from "../recording/outboxSteps";
import type { AttemptReport } from "./attemptPosts";
import { AttemptStory } from "./attemptStory";
import type { Courier } from "./courier";
import { eventIdOf } from "./deliveryFields";
import { RETRYING_NOTICE_AT_ATTEMPT } from "./failureNotices";
import { fenced, postpone, reentered } from "./postponements";

/** Calls a run's attempt is promised before its listener's are known (a reply's status, post and update); other kinds make one. */
export const UNSEEN_RUN_CALLS = 3;

/**
 * Delivers rows already leased to `token`: the sweep's claims (sweep.ts) and the immediate
 * attempts (immediateAttempts.ts) both come here. Never throws: on an unexpected failure the
 * leases stay, and the alarm (armed for their expiry) reclaims the rows.
 */
export async function deliverLeased(...leased: Parameters<typeof deliverClaimed>): Promise<void> {
  try {
    await deliverClaimed(...leased);
  } catch (error) {
    log("error", "delivery failed", { shard: leased[0].shard, error: describeError(error) });
  }
}

/**
 * Performs every row leased to `token`, concurrently within the outgoing-connection limit,
 * then settles each one fenced by the token. The sweep (alarm) and the immediate attempt
 * after an ingest both deliver through here: one code path, two triggers.
 */
export async function deliverClaimed(
  courier: Courier,
  token: string,
  rows: readonly ClaimedRow[],
  concurrency = courier.delivery.concurrency,
  /** The invocation whose work this is: its calls count on its meter (platform/invocationMeter.ts). */
  meter = courier.meters.current,
): Promise<void> {
  await mapConcurrent(rows, concurrency, (row) => deliverOne(courier, token, row, meter));
}

async function deliverOne(courier: Courier, token: string, claimed: ClaimedRow, meter: InvocationMeter): Promise<void> {
  const { retryAfters, events } = courier;
  const key = claimed.idempotency_key;
  const blockedUntil =
    claimed.rate_key === null
      ? undefined
      : retryAfters.blockedUntil(workspaceRateKey(claimed.workspace, claimed.rate_key), Date.now());
  if (blockedUntil !== undefined) {
    events.emit(postpone(courier, token, claimed, blockedUntil));
    return;
  }
  const read = readableEffect(claimed);
  const work = workOf(read);
  // Begun only with room on its invocation for the calls its work asked for before, beside those promised to the
  // attempts already running on it: else the row waits for the next alarm's, not begun (no handler half run, no
  // attempt cut short for another's calls: issue 43), no attempt counted.
  const promised = meter.promise(courier.meters.expectedCalls(work, read?.type === "run" ? UNSEEN_RUN_CALLS : 1));
  if (!promised) {
    events.emit(postpone(courier, token, claimed, Date.now() + SPENT_RESUME_MS));
    return;
  }
  // A suspended run woke: it takes a new turn, the newest of its thread (parts/turns/suspendedTurns.ts).
  const row = claimed.turn_released ? reentered(courier, token, claimed) : claimed;
  if (row === undefined) {
    promised.end();
    return;
  }

  let settlement: Settlement;
  let effect: Effect | undefined;
  const report: AttemptReport = { postsUncertainSince: () => null, story: new AttemptStory() };
  try {
    // Inside the try: a payload that cannot be read back is parked as a counted attempt, not re-leased forever.
    const performed = read ?? readEffect(row.payload);
    effect = performed;
    // Its calls count on what was promised to it first, then on what its invocation has left.
    await courier.leases.during(key, token, () => courier.perform(performed, row, token, report, promised));
    settlement = { disposition: "delivered" };
  } catch (error) {
    settlement = settlementOf(error);
  }
  courier.meters.ended(work, promised);
  // The await above opened the input gate: the row may have been re-leased meanwhile,
  // so every settle below is fenced by our token rather than trusting what we read.
  const settled = await settle(courier, token, row, settlement, effect, report, meter);
  settled.eventId = eventIdOf(effect, key);
  events.emit(settled);
  // A turn that ended no longer holds its thread (recording/outboxTurns.ts): the next one goes now, not at the next alarm.
  if (row.turn && (settled.type === "delivered" || settled.type === "parked" || settled.type === "stopped"))
    courier.turnEnded?.(row.turn, key, meter);
}

/** The row's effect, or undefined when its payload cannot be read back (its attempt parks it). */
function readableEffect(row: ClaimedRow): Effect | undefined {
  try {
    return row.effect ?? readEffect(row.payload);
  } catch {
    return undefined;
  }
}

/** What an attempt does, as far as its calls go: a run's listener, else its effect's kind. */
function workOf(effect: Effect | undefined): string {
  return effect?.type === "run" ? `run:${effect.listener}` : (effect?.type ?? "unreadable");
}

/** Writes the settlement to the row, fenced by `token`, and says what happened. */
async function settle(
  courier: Courier,
  token: string,
  row: ClaimedRow,
  settlement: Settlement,
  effect: Effect | undefined,
  /** What the settle's own UPDATE writes of the attempt: the step results it kept, first (the posts they record are no
   * longer uncertain: attemptPosts.ts), whether it posted what its retry would post again, its story. */
  report: AttemptReport,
  /** The attempt's invocation: a turn it gives back lets the thread's next go as that invocation's work. */
  meter?: InvocationMeter,
): Promise<DeliveryEvent> {
  const { outbox, completions, delivery, retryAfters, shard } = courier;
  // A completion writes its steps itself (when its batched UPDATE is made), a lost lease nothing (the fence refuses it); the rest here (a read first).
  const writes = settlement.disposition !== "delivered" && settlement.disposition !== "lease_lost";
  const checkpoints = (writes && report.checkpoints?.()) || NO_CHECKPOINTS;
  const postsUncertainSince = report.postsUncertainSince();
  const { story } = report;
  const key = row.idempotency_key;
  const now = Date.now();
  // An attempt a stop met before it began is not counted.
  const attempts = row.attempts + (settlement.disposition === "stop" && settlement.uncounted ? 0 : 1);

  if (settlement.disposition === "lease_lost") return fenced(courier, row, settlement.at);
  if (settlement.disposition === "stop") {
    // An outcome, not a failure: no follow-ups (no app.error, no notice), only the messages it left streaming closed.
    const closes = outbox.stopped.stop(
      key,
      token,
      attempts,
      settlement.reason,
      now,
      () => (effect && courier.closes ? courier.closes(effect, row, settlement.reason) : []),
      postsUncertainSince,
      story?.written("stopped", settlement.reason) ?? null,
      checkpoints,
    );
    if (closes === null) return fenced(courier, row, "stop");
    if (closes.length > 0) courier.wakeAt(now);
    return { type: "stopped", shard, key, attempts, reason: settlement.reason };
  }
  if (settlement.disposition === "postpone")
    return postpone(
      courier,
      token,
      row,
      settlement.until,
      postsUncertainSince,
      settlement.suspended === true,
      checkpoints,
      meter,
    );
  if (settlement.disposition === "delivered") {
    // The kept step results go with the completion's UPDATE (the row is kept, done): no row more, and it sizes them itself.
    return (await completions.complete(
      key,
      token,
      story?.written("done") ?? null,
      () => report.checkpoints?.(true) ?? NO_CHECKPOINTS,
    ))
      ? { type: "delivered", shard, key, attempts, recordedAt: row.created_at }
      : fenced(courier, row, "complete");
  }
  const retryUntil = settlement.disposition === "retry" ? settlement.retryUntil : undefined;
  // A horizon in time (relay) replaces the one in attempts.
  const maxAttempts =
    retryUntil !== undefined
      ? Infinity
      : Math.min(
          settlement.disposition === "retry" ? (settlement.maxAttempts ?? Infinity) : Infinity,
          delivery.backoff.maxAttempts,
        );
  const nextAttemptAt =
    settlement.disposition === "retry"
      ? (settlement.retryAt ?? now + retryDelayMs(delivery.backoff, attempts, settlement.retryAfterMs))
      : Number.NaN;
  const exhausted = settlement.disposition === "retry" && attempts >= maxAttempts;
  const expired = retryUntil !== undefined && nextAttemptAt > retryUntil;
  if (settlement.disposition === "park" || exhausted || expired) {
    const reason = exhausted
      ? `attempts exhausted; last: ${settlement.reason}`
      : expired
        ? `retry horizon passed; last: ${settlement.reason}`
        : settlement.reason;
    // Step checkpoints stay on a parked row: a replayed run resumes after its completed steps.
    // Its follow-ups are planned only if this is its first parking, inside the parking's transaction.
    const followUps = outbox.parked.park(
      key,
      token,
      attempts,
      reason,
      now,
      () => (effect && courier.followUps ? courier.followUps(effect, row, reason) : []),
      () => (effect && courier.closes ? courier.closes(effect, row, reason) : []),
      postsUncertainSince,
      story?.written("parked", reason) ?? null,
      checkpoints,
    );
    if (followUps === null) return fenced(courier, row, "park");
    if (followUps.length > 0) courier.wakeAt(now);
    return { type: "parked", shard, key, attempts, reason };
  }
  if (settlement.retryAfterMs !== undefined && row.rate_key !== null)
    retryAfters.remember(workspaceRateKey(row.workspace, row.rate_key), now + settlement.retryAfterMs, now);
  const { retrying } = courier;
  const notices =
    attempts === RETRYING_NOTICE_AT_ATTEMPT && effect && retrying ? () => retrying(effect, row, settlement.reason) : undefined;
  const told = outbox.retryLater(
    key,
    token,
    attempts,
    nextAttemptAt,
    settlement.reason,
    postsUncertainSince,
    notices,
    story?.written("retried", settlement.reason) ?? null,
    checkpoints,
  );
  if (told === null) return fenced(courier, row, "retry");
  courier.wakeAt(told.length > 0 ? now : nextAttemptAt);
  return { type: "retried", shard, key, attempts, reason: settlement.reason, nextAttemptAt, effect: effect?.type };
}
