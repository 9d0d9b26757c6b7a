import type { ShardParts } from "../parts/shardParts";
import type { DeliveryEvent, DeliveryEvents } from "../platform/deliveryEvents";
import type { InvocationMeter } from "../platform/invocationMeter";
import type { ClaimedRow, Outbox } from "../recording/outbox";
import { NO_CHECKPOINTS } from "../recording/outboxSteps";

/** What putting a row back needs of the courier (courier.ts `Courier`). */
interface Postponing {
  outbox: Outbox;
  events: DeliveryEvents;
  shard: string;
  wakeAt(at: number): void;
  turnEnded?(conversation: string, key: string, meter?: InvocationMeter): void;
  parts: Pick<ShardParts, "waits" | "turns">;
}

/**
 * Puts the row back until `until` without counting an attempt (its rate key is cooling down, or
 * paced, or its run `suspended` itself: then its turn is given back, and the thread's next turn goes — as the
 * work of the attempt's invocation, on `meter`, as the end of a turn that settled is: deliverClaimed.ts).
 */
export function postpone(
  courier: Postponing,
  token: string,
  row: ClaimedRow,
  until: number,
  postsUncertainSince: number | null = null,
  suspended = false,
  checkpoints = NO_CHECKPOINTS,
  meter?: InvocationMeter,
): DeliveryEvent {
  // A click answered the run's wait while this attempt was suspending it (its ingest could not wake
  // a leased row): due now. Read in the same turn as the postpone, so no click falls in between.
  const due = courier.parts.waits.answeredFor(row.idempotency_key) ? Date.now() : until;
  // Fenced by the same lease as the postpone, with no await between: both are written, or neither.
  const released = suspended && row.turn ? courier.parts.turns.suspended.release(row.idempotency_key, token) : null;
  if (!courier.outbox.postpone(row.idempotency_key, token, due, postsUncertainSince, checkpoints))
    return fenced(courier, row, "postpone");
  if (released !== null) courier.turnEnded?.(released, row.idempotency_key, meter);
  courier.wakeAt(due);
  return { type: "postponed", shard: courier.shard, key: row.idempotency_key, attempts: row.attempts, until: due };
}

/**
 * The woken run `row`, with its new turn; undefined when a turn holds its thread now (it is held
 * behind it, unleased: that turn's end lets it go) or its lease was lost.
 */
export function reentered(courier: Postponing, token: string, row: ClaimedRow): ClaimedRow | undefined {
  const conversation = row.turn_released as string;
  const turn = courier.parts.turns.suspended.reenter(row.idempotency_key, token, conversation);
  if (turn === null) courier.events.emit(fenced(courier, row, "postpone"));
  return turn === null || turn.waits ? undefined : { ...row, turn: conversation, turn_released: null };
}

export function fenced(
  courier: Postponing,
  row: ClaimedRow,
  step: Extract<DeliveryEvent, { type: "fenceRejected" }>["step"],
): DeliveryEvent {
  return { type: "fenceRejected", shard: courier.shard, key: row.idempotency_key, attempts: row.attempts, step };
}
