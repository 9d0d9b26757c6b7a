import type { PlannedEffect } from "../../app/contract";
import type { Inbound } from "../../inbound/types";
import { userOf } from "../../inbound/userOf";
import { INTERRUPTED } from "../../platform/errors";
import type { AdmittedTurns } from "../../recording/ingest";
import type { Outbox } from "../../recording/outbox";
import { budgetedTurns } from "./budgetedTurns";
import { burstOf, joinBurst } from "./mergedTurns";
import type { TurnBudgets } from "./turnBudgets";

/**
 * The turns' ingest side: a first-recorded delivery's turns taken in, inside its ingest's
 * transaction (recording/ingest.ts), in this order — a `merge` turn's message joins its user's open
 * burst (mergedTurns.ts), the others are judged against their budgets (budgetedTurns.ts), the
 * delivery's turns take one place in their conversation, after every turn recorded before it
 * (recording/outboxTurns.ts), and an `interrupt` turn stops those of its user — or anyone's —
 * that hold the thread before it, so it waits for none of them.
 */
export function admittedTurns(
  outbox: Outbox,
  budgets: TurnBudgets,
  inbound: Inbound,
  firsts: PlannedEffect[],
  now: number,
): AdmittedTurns {
  // A merge turn's message joins its user's burst while that turn has not started: no row of its
  // own, and not a turn of its own either (the burst was counted at its first message).
  const quietEnd = (planned: PlannedEffect) => now + (planned.turn?.quietMs ?? 0);
  const merges = firsts.filter((planned) => planned.turn?.policy === "merge");
  const dueAt = merges.length > 0 ? Math.min(...merges.map(quietEnd)) : null;
  const joined = new Set(merges.filter((planned) => joins(outbox, inbound, planned, quietEnd(planned))));
  // Counted only here, past both receipts: a retried delivery, or a message's twin event, counts once.
  const { effects, refused } = budgetedTurns(
    budgets,
    inbound,
    firsts.filter((planned) => !joined.has(planned)),
    now,
  );
  // One delivery's turns share one conversation (the delivery's) and one place in it.
  const turns = effects.filter((planned) => planned.turn);
  const conversation = turns[0]?.turn?.conversation;
  let place = conversation === undefined ? undefined : outbox.turns.place(conversation, turns.length);
  let interrupted: string[] = [];
  // Before the enqueue: the turns it interrupts no longer hold the thread, so its own turn is leased at once.
  const interrupts = turns.find((planned) => planned.turn?.policy === "interrupt")?.turn;
  if (place?.waits && interrupts) {
    const whose = interrupts.of === "anyone" ? "anyone" : { user: userOf(inbound) };
    const interrupting = outbox.turns.interrupt(place, INTERRUPTED, now, whose);
    interrupted = interrupting.stopped;
    place = interrupting.place;
  }
  const placed = place;
  return {
    effects,
    ...(refused ? { refused } : {}),
    interrupted,
    dueAt,
    rowOf(planned) {
      const burst = burstOf(inbound, planned);
      return {
        ...(planned.turn && placed ? { turn: placed } : {}),
        // A burst's first message: its row is due after the quiet period, and the alarm runs it.
        ...(burst === undefined ? {} : { burst, dueAt: quietEnd(planned) }),
      };
    },
  };
}

/** Whether `planned`'s run of `inbound` joins its user's open burst (mergedTurns.ts), due at `dueAt` then. */
function joins(outbox: Outbox, inbound: Inbound, planned: PlannedEffect, dueAt: number): boolean {
  const burst = burstOf(inbound, planned);
  return burst !== undefined && joinBurst(outbox.sql, burst, inbound, dueAt);
}
