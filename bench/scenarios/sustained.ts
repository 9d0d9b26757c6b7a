import type { LatencySummary } from "../report/latency";

/** What one step must show to count as sustained: the acks in time, no errors, and the work keeping up. */
export const ACK_P99_MS = 500;
export const REPLY_P99_MS = 1000;
/** Replies still owed when the offered load ends, in seconds of that load: more, and the backlog grew over the step. */
export const BACKLOG_SECONDS = 2;

/** The rule in words, for every line and table that names it. */
export const SUSTAINED_RULE = `ack p99 < ${ACK_P99_MS} ms, no non-2xx, reply p99 < ${REPLY_P99_MS} ms, replies owed at the end ≤ ${BACKLOG_SECONDS} s of traffic`;

/**
 * Whether a step is sustained. A subject that replies must keep up with its replies too — acks
 * under 500 ms while the replies fall further behind are not a rate it sustains; one that only
 * acks (the floor) is judged by its acks.
 */
export function isSustained(step: {
  non2xx: number;
  ack: LatencySummary;
  delivery: LatencySummary | null;
  backlogS: number | null;
}): boolean {
  const acks = step.non2xx === 0 && step.ack.p99 !== null && step.ack.p99 < ACK_P99_MS;
  if (step.delivery === null || step.backlogS === null) return acks;
  return acks && step.delivery.p99 !== null && step.delivery.p99 < REPLY_P99_MS && step.backlogS <= BACKLOG_SECONDS;
}

/**
 * Replies still owed when the offered load ended (its last request's scheduled time), in seconds
 * of the offered rate: each acked event whose first reply reached the fake later, or never.
 */
export function backlogSeconds(
  acked: ReadonlyArray<{ thread: string; scheduledAt: number }>,
  firstAt: (thread: string) => number | undefined,
  rate: number,
): number {
  const end = Math.max(...acked.map((sample) => sample.scheduledAt));
  const owed = acked.filter((sample) => (firstAt(sample.thread) ?? Number.POSITIVE_INFINITY) > end).length;
  return Math.round((owed / rate) * 100) / 100;
}
