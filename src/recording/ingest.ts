import type { PlannedEffect, SlackApp, TurnLimit } from "../app/contract";
import { outboxKeyOf } from "../app/contract";
import type { Inbound } from "../inbound/types";
import { userOf } from "../inbound/userOf";
import { INTERRUPTED } from "../platform/errors";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { IngestResult } from "../rpc/shard";
import { budgetedTurns } from "./budgetedTurns";
import type { ClaimedRow, Lease, Outbox } from "./outbox";
import { newRow } from "./outboxRows";
import type { Receipts } from "./receipts";
import type { TurnBudgets } from "./turnBudgets";

export interface IngestStores {
  /** The shard's one SQL door: its transaction refuses what Cloudflare refuses (platform/sql/meteredSql.ts). */
  sql: MeteredSql;
  receipts: Receipts;
  outbox: Outbox;
  /** Each user's and the workspace's turns this minute and day (`limits`). */
  budgets: TurnBudgets;
}

/**
 * Records one delivery: its receipt and outbox rows in ONE transaction, so either all of it is
 * stored or none. New rows are leased to `lease` (the immediate attempt) as they are written,
 * or left unleased for the sweep when `lease` is null. Returns the verdict, the new rows leased
 * and, when its turn interrupts (`turns: "interrupt"`), the keys of the turns it stopped: its own
 * user's earlier turns, or anyone's (`of: "anyone"`); with another user's left, it queues behind them.
 * A delivery's runs that are turns (PlannedEffect.turn) take its place in their conversation,
 * after every turn recorded before it (recording/outboxTurns.ts). A turn under budgets (`limits`)
 * is counted here, only as its delivery is first recorded; over one, it is not enqueued but refused
 * (budgetedTurns.ts), and `refused` says which limit.
 */
export function ingestDelivery(
  stores: IngestStores,
  app: SlackApp,
  inbound: Inbound,
  now: number,
  lease: Lease | null,
): { result: IngestResult; leased: ClaimedRow[]; interrupted: string[]; refused?: TurnLimit } {
  const plan = app.plan(inbound);
  if ("ignore" in plan) return { result: { verdict: "ignored", enqueued: 0 }, leased: [], interrupted: [] };

  const { sql, receipts, outbox } = stores;
  const factScoped = (planned: PlannedEffect) => planned.scope === "fact" && inbound.factKey !== undefined;
  // When every effect is keyed by the message, the message's fact receipt is this delivery's
  // dedupe record too: a retry of this event finds it exactly as a twin event does.
  const byFactOnly = plan.effects.length > 0 && plan.ackBody === undefined && plan.effects.every(factScoped);
  let leased: ClaimedRow[] = [];
  let interrupted: string[] = [];
  let refused: TurnLimit | undefined;
  receipts.prepare(now);
  const result = sql.transaction((): IngestResult => {
    if (!byFactOnly && !receipts.recordFirst(inbound, plan.ackBody, now)) {
      return { verdict: "duplicate", ackBody: receipts.responseOf(inbound.dedupeKey, now), enqueued: 0 };
    }
    // A fact-scoped effect is enqueued once per message, whichever of its events comes first.
    const firsts = plan.effects.filter(
      (planned) => !factScoped(planned) || receipts.recordFirstFact(outboxKeyOf(inbound, planned), inbound, now),
    );
    if (byFactOnly && firsts.length === 0) return { verdict: "duplicate", enqueued: 0 };
    // Counted only here, past both receipts: a retried delivery, or a message's twin event, counts once.
    const budgeted = budgetedTurns(stores.budgets, inbound, firsts, now);
    const { effects } = budgeted;
    refused = budgeted.refused;
    // One delivery's turns share one conversation (the delivery's) and one place in it.
    const turns = effects.filter((planned) => planned.turn);
    const conversation = turns[0]?.turn?.conversation;
    let place = conversation === undefined ? undefined : outbox.turns.place(conversation, turns.length);
    // Before the enqueue: the turns it interrupts no longer hold the thread, so its own turn is leased at once.
    const interrupts = turns.find((planned) => planned.turn?.policy === "interrupt")?.turn;
    if (place?.waits && interrupts) {
      const whose = interrupts.of === "anyone" ? "anyone" : { user: userOf(inbound) };
      const interrupting = outbox.turns.interrupt(place, INTERRUPTED, now, whose);
      interrupted = interrupting.stopped;
      place = interrupting.place;
    }
    const rows = outbox.enqueue(
      effects.map((planned) => ({
        ...newRow(outboxKeyOf(inbound, planned), inbound.workspace, planned.effect),
        ...(planned.turn && place ? { turn: place } : {}),
      })),
      now,
      lease,
    );
    leased = rows.filter((row) => !row.waitsForTurn);
    return { verdict: "accepted", ackBody: plan.ackBody, enqueued: rows.length };
  });
  return { result, leased, interrupted, ...(refused ? { refused } : {}) };
}
