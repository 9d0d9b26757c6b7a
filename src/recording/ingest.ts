import type { AckBody, Plan, PlannedEffect, SlackApp, TurnLimit } from "../app/contract";
import { outboxKeyOf } from "../app/contract";
import type { Inbound } from "../inbound/types";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { IngestResult } from "../rpc/shard";
import type { FoldedReceipt } from "./foldedReceipts";
import type { ClaimedRow, Lease, Outbox } from "./outbox";
import type { OutboxFiling } from "./outboxFiling";
import { type NewRow, newRow } from "./outboxRows";
import type { ReceiptStory } from "./receiptStory";
import type { Receipts } from "./receipts";

/** A delivery's turns as its ingest takes them in, in its transaction (the turns part: parts/turns/). */
export interface IngestTurns {
  /** `firsts`: the effects this delivery records for the first time (past its receipts), in its transaction. */
  admit(inbound: Inbound, firsts: PlannedEffect[], now: number): AdmittedTurns;
}

/** What a delivery's turns leave to enqueue (AdmittedTurns.effects), and what its ingest tells. */
export interface AdmittedTurns {
  /** The effects to enqueue: a merge turn's run that joined its burst is not one, a refused turn became its refusal. */
  effects: PlannedEffect[];
  /** The limit that refused a turn, if one did. */
  refused?: TurnLimit;
  /** The runs the delivery's interrupting turn stopped. */
  interrupted: string[];
  /** The end of its merge turns' quiet period (the earliest): when the alarm must look again; null with none. */
  dueAt: number | null;
  /** The turn of `planned`'s row: its place in its conversation, its burst and when it is due. */
  rowOf(planned: PlannedEffect): Pick<NewRow, "turn" | "burst" | "dueAt">;
}

export interface IngestStores {
  /** The shard's one SQL door: its transaction refuses what Cloudflare refuses (platform/sql/meteredSql.ts). */
  sql: MeteredSql;
  receipts: Receipts;
  outbox: Outbox;
  /** Its turns: budgets, bursts, places and interrupts (parts/turns/). */
  turns: IngestTurns;
  /** The outbox filed by generation: its first mark is made as a receipt generation's table is (outboxFiling.ts). */
  filing?: OutboxFiling;
}

/**
 * Records one delivery: its receipt and outbox rows in ONE transaction, so either all of it is
 * stored or none. New rows are leased to `lease` (the immediate attempt) as they are written,
 * or left unleased for the sweep when `lease` is null. Returns the verdict, the new rows leased
 * and, when its turn interrupts (`turns: "interrupt"`), the keys of the turns it stopped: its own
 * user's earlier turns, or anyone's (`of: "anyone"`); with another user's left, it queues behind them.
 * A delivery's runs that are turns (PlannedEffect.turn) take its place in their conversation,
 * after every turn recorded before it (recording/outboxTurns.ts). A turn under budgets (`limits`)
 * is counted here, only as its delivery is first recorded; over one, it is not enqueued but refused,
 * and `refused` says which limit. A `merge` turn's run joins its user's burst instead while that
 * turn has not started — one turn, counted once, at its first message — and is due after its quiet
 * period: `dueAt`, the earliest such time, is when the shard's alarm must look again. All of that
 * is the turns part's ingest side (`stores.turns`: parts/turns/).
 */
export function ingestDelivery(
  stores: IngestStores,
  app: SlackApp,
  inbound: Inbound,
  now: number,
  lease: Lease | null,
  /** The edge's plan of `inbound`, carried with it; planned here without one. */
  plan: Plan = app.plan(inbound),
): { result: IngestResult; leased: ClaimedRow[]; interrupted: string[]; refused?: TurnLimit; dueAt: number | null } {
  if ("ignore" in plan) return { result: { verdict: "ignored", enqueued: 0 }, leased: [], interrupted: [], dueAt: null };

  const { sql, receipts, outbox } = stores;
  const factScoped = (planned: PlannedEffect) => planned.scope === "fact" && inbound.factKey !== undefined;
  const factReceiptKey = (planned: PlannedEffect) => `fact:${outboxKeyOf(inbound, planned)}`;
  // When every effect is keyed by the message, the message's fact receipt is this delivery's
  // dedupe record too: a retry of this event finds it exactly as a twin event does.
  const byFactOnly = plan.effects.length > 0 && plan.ackBody === undefined && plan.effects.every(factScoped);
  let leased: ClaimedRow[] = [];
  let interrupted: string[] = [];
  let refused: TurnLimit | undefined;
  let dueAt: number | null = null;
  receipts.prepare(now);
  stores.filing?.mark(now);
  // The story's head rides on a receipt below: no row of its own (docs/design.md "An event's story").
  const story = receipts.storyOf(
    inbound,
    plan.effects.map((planned) => outboxKeyOf(inbound, planned)),
  );
  const receiptOf = (key: string, kind: string, carried?: ReceiptStory, ackBody?: AckBody): FoldedReceipt => ({
    key,
    kind,
    type: inbound.type,
    retryNum: inbound.retryNum ?? null,
    retryReason: inbound.retryReason ?? null,
    response: ackBody === undefined ? null : JSON.stringify(ackBody),
    receivedAt: now,
    ...(carried ? { story: carried } : {}),
  });
  const result = sql.transaction((): IngestResult => {
    if (!byFactOnly && receipts.seen(inbound.dedupeKey, now)) {
      return { verdict: "duplicate", ackBody: receipts.responseOf(inbound.dedupeKey, now), enqueued: 0 };
    }
    // A fact-scoped effect is enqueued once per message, whichever of its events comes first.
    const firsts = plan.effects.filter((planned) => !factScoped(planned) || !receipts.seen(factReceiptKey(planned), now));
    if (byFactOnly && firsts.length === 0) return { verdict: "duplicate", enqueued: 0 };
    // Bursts joined, budgets judged, the turns' place taken and what they interrupt stopped, in this transaction.
    const turns = stores.turns.admit(inbound, firsts, now);
    const { effects } = turns;
    ({ refused, interrupted, dueAt } = turns);
    // The receipts this delivery owes: its own (unless its message's fact receipts are its record) and
    // each new fact's. Each is carried by a row written here — its own fact-scoped row, or the
    // delivery's first row of its own — so it costs no row (docs/design.md "An event's story").
    const owed: { receipt: FoldedReceipt; carrier?: string }[] = [];
    const ownRow = effects.find((planned) => !factScoped(planned));
    if (!byFactOnly) {
      const receipt = receiptOf(inbound.dedupeKey, inbound.kind, story, plan.ackBody);
      owed.push({ receipt, ...(ownRow ? { carrier: outboxKeyOf(inbound, ownRow) } : {}) });
    }
    firsts.filter(factScoped).forEach((planned, n) => {
      // The story rides on one receipt per delivery: its own, or — with none of its own — its first fact's.
      const receipt = receiptOf(factReceiptKey(planned), "fact", byFactOnly && n === 0 ? story : undefined);
      owed.push({ receipt, ...(effects.includes(planned) ? { carrier: outboxKeyOf(inbound, planned) } : {}) });
    });
    const carried = new Map(owed.flatMap(({ receipt, carrier }) => (carrier ? [[carrier, receipt] as const] : [])));
    const rows = outbox.enqueue(
      effects.map((planned) => {
        const key = outboxKeyOf(inbound, planned);
        const receipt = carried.get(key);
        return { ...newRow(key, inbound.workspace, planned.effect), ...turns.rowOf(planned), ...(receipt ? { receipt } : {}) };
      }),
      now,
      lease,
    );
    // A receipt whose row was not written (refused, merged into a burst, or there already) is a row of its own.
    const written = new Set(rows.map((row) => row.idempotency_key));
    for (const { receipt, carrier } of owed) {
      if (carrier === undefined || !written.has(carrier)) receipts.record(receipt, inbound.workspace);
    }
    leased = rows.filter((row) => !row.waitsForTurn && row.dueAt === undefined);
    return { verdict: "accepted", ackBody: plan.ackBody, enqueued: rows.length };
  });
  return { result, leased, interrupted, ...(refused ? { refused } : {}), dueAt: result.verdict === "accepted" ? dueAt : null };
}
