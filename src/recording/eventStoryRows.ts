import type { MeteredSql } from "../platform/sql/meteredSql";
import type { AttemptStory, EffectStatus, EffectStory, EventFilter, EventStory, EventSummary } from "../rpc/eventStories";
import { type WaitsOfRun, withEffectMessages } from "./effectMessageRows";
import { AS_RECEIPT } from "./foldedReceipts";
import { filedTable, type OutboxFiling } from "./outboxFiling";
import type { Receipts } from "./receipts";
import { tableOf } from "./receipts";
import { STATUS_OF } from "./rowStatus";
import { HELD_TURN_AT } from "./turnMarks";

/** A receipt row as the story reads it. */
type ReceiptRow = {
  dedupe_key: string;
  kind: string;
  type: string;
  workspace: string;
  channel: string | null;
  user_id: string | null;
  thread_ts: string | null;
  received_at: number;
  retry_num: number | null;
  retry_reason: string | null;
  effects: string | null;
};

type EffectRow = {
  effect: string;
  status: Exclude<EffectStatus, "settled">;
  attempts: number;
  last_error: string | null;
  next_attempt_at: number;
  leased: number;
  parked_at: number | null;
  story: string | null;
};

const COLUMNS = "dedupe_key, kind, type, workspace, channel, user_id, thread_ts, received_at, retry_num, retry_reason, effects";
/** A delivery's status is its worst effect's. */
const WORST_FIRST: EffectStatus[] = ["parked", "stopped", "pending", "done", "settled"];
const EFFECT_COLUMNS = `effect, ${STATUS_OF("o")} AS status, attempts, last_error, next_attempt_at, claim_token IS NOT NULL AS leased, parked_at, story`;

/**
 * The look-up side of an event's story (docs/design.md "An event's story"): a delivery's receipt
 * read by key in the kept generations, its effects' outbox rows by key — primary keys only: the
 * live `outbox`, then the kept filed generations' done rows (outboxFiling.ts) — and the list, newest first, scanning the kept generations' receipts (no index: an index entry
 * would be a row written per event). Reads only.
 */
export class EventStories {
  constructor(
    private readonly sql: MeteredSql,
    private readonly receipts: Receipts,
    private readonly filing: OutboxFiling,
    /** A run's waits, from the waits part (src/parts/waits/): its story shows their questions. */
    private readonly waitsOf: WaitsOfRun,
  ) {}

  /**
   * The story of the delivery `id` (its dedupe key, or a fact receipt's `fact:…` key); null when
   * unknown or pruned. An `event_id` whose delivery was keyed by its message alone (every listener
   * `dedupe: "fact"`, as the demo's mention) has no receipt of its own: it is found in its message's
   * fact receipt, by the `event_id` its kept payload names — a scan of the kept fact receipts, made
   * only when the key is not found (an operator's look-up, never an ingest's).
   */
  story(id: string, now: number): EventStory | null {
    const row =
      this.receiptOf(`dedupe_key = ?`, id, now) ??
      this.receipts.folded?.find<ReceiptRow & { payload: string | null }>(AS_RECEIPT, id, now) ??
      (id.startsWith("fact:") ? undefined : this.factReceiptOf(id, now));
    if (!row) return null;
    const filed = this.filing.kept(now);
    const story = { ...this.summary(row, filed), payload: row.payload === null ? null : JSON.parse(row.payload) };
    // A done row's checkpoints are read where it is, filed or not.
    return withEffectMessages(this.waitsOf, story, (key) => this.rowOf<{ steps: string }>("steps", key, filed)?.steps);
  }

  /** The first receipt, newest generation first, that `where` (one bound value) finds: a row of its own, or (`folded`) carried by an outbox row. */
  private receiptOf(
    where: string,
    value: string,
    now: number,
    folded = false,
  ): (ReceiptRow & { payload: string | null }) | undefined {
    for (const source of folded ? this.foldedSources(now) : this.receipts.keptGenerations(now).map(tableOf)) {
      const [row] = this.sql.all<ReceiptRow & { payload: string | null }>(
        `SELECT ${COLUMNS}, payload FROM ${source} WHERE ${where} LIMIT 1`,
        value,
      );
      if (row) return row;
    }
    return undefined;
  }

  /** The fact receipt recorded by the event `eventId` (its payload's `event_id`: kept unless EVENT_PAYLOADS is none). */
  private factReceiptOf(eventId: string, now: number) {
    const where = `kind = 'fact' AND payload IS NOT NULL AND payload ->> '$.event_id' = ?`;
    return this.receiptOf(where, eventId, now) ?? this.receiptOf(where, eventId, now, true);
  }

  /**
   * The receipts outbox rows carry (foldedReceipts.ts), each table's as a receipt table reads: live
   * rows in `outbox`, done ones in a filed table (its live rows were carried forward), in the window.
   */
  private foldedSources(now: number): string[] {
    const folded = this.receipts.folded;
    if (!folded) return [];
    const since = folded.since(now);
    return folded
      .tables(now)
      .map(
        (table) =>
          `(SELECT ${AS_RECEIPT} FROM ${table} WHERE receipt_key IS NOT NULL AND received_at >= ${since}${table === "outbox" ? "" : " AND done_at IS NOT NULL"})`,
      );
  }

  /** Deliveries matching `filter`, newest first (received time, then id), at most `filter.limit`. */
  list(filter: EventFilter, now: number): EventSummary[] {
    const filed = this.filing.kept(now);
    // Each source's newest page — receipt tables, and the rows carrying receipts — merged by (received time, id).
    const sources = [...this.receipts.keptGenerations(now).map(tableOf), ...this.foldedSources(now)];
    return sources
      .flatMap((source) => this.page(source, filter, filter.limit, filed))
      .sort((a, b) => b.received_at - a.received_at || (a.dedupe_key < b.dedupe_key ? 1 : a.dedupe_key > b.dedupe_key ? -1 : 0))
      .slice(0, filter.limit)
      .map((row) => this.summary(row, filed));
  }

  private page(source: string, filter: EventFilter, limit: number, filed: number[]): ReceiptRow[] {
    const { status } = filter;
    const rowsOf = (outbox: string) => `FROM json_each(r.effects) AS e JOIN ${outbox} AS o ON o.idempotency_key = e.value`;
    // An effect's row by key: live in `outbox`, or done in a filed generation (only its done rows are read there).
    const doneFiled = filed.map((g) => `EXISTS (SELECT 1 ${rowsOf(filedTable(g))} WHERE o.done_at IS NOT NULL)`);
    const byStatus =
      status === undefined
        ? ""
        : status === "settled"
          ? `AND NOT EXISTS (SELECT 1 ${rowsOf("outbox")}) ${doneFiled.map((done) => `AND NOT ${done}`).join(" ")}`
          : `AND (EXISTS (SELECT 1 ${rowsOf("outbox")} WHERE ${STATUS_OF("o")} = ?9)${status === "done" ? doneFiled.map((done) => ` OR ${done}`).join("") : ""})`;
    // Only a receipt that carries a story (`effects`): one per delivery (a fact receipt carries it only for a delivery that has no other).
    return this.sql.all<ReceiptRow>(
      `SELECT ${COLUMNS} FROM ${source} AS r
        WHERE effects IS NOT NULL AND (?1 IS NULL OR channel = ?1) AND (?2 IS NULL OR user_id = ?2)
          AND (?3 IS NULL OR received_at >= ?3) AND (?4 IS NULL OR received_at < ?4)
          AND (?5 IS NULL OR received_at < ?5 OR (received_at = ?5 AND dedupe_key < ?6))
          AND (?7 IS NULL OR EXISTS (SELECT 1 FROM json_each(r.effects) WHERE substr(value, -length(?7) - 1) = ':' || ?7))
          ${byStatus}
        ORDER BY received_at DESC, dedupe_key DESC LIMIT ?8`,
      filter.channel ?? null,
      filter.user ?? null,
      filter.since ?? null,
      filter.until ?? null,
      filter.before?.receivedAt ?? null,
      filter.before?.id ?? "",
      filter.listener ?? null,
      limit,
      ...(status === undefined || status === "settled" ? [] : [status]),
    );
  }

  private summary(row: ReceiptRow, filed: number[]): EventSummary {
    const keys = row.effects === null ? [] : (JSON.parse(row.effects) as string[]);
    const effects = keys.map((key) => this.effect(key, filed));
    const status = WORST_FIRST.find((worst) => effects.some((effect) => effect.status === worst)) ?? "settled";
    return {
      id: row.dedupe_key,
      kind: row.kind,
      type: row.type,
      workspace: row.workspace,
      channel: row.channel,
      user: row.user_id,
      thread: row.thread_ts,
      receivedAt: row.received_at,
      retryNum: row.retry_num,
      retryReason: row.retry_reason,
      status,
      effects,
    };
  }

  /** An effect by its outbox key: its row as it stands (live, or done and filed), or `settled` once the row is gone. */
  private effect(key: string, filed: number[]): EffectStory {
    const row = this.rowOf<EffectRow>(EFFECT_COLUMNS, key, filed);
    if (!row) {
      return {
        key,
        status: "settled",
        effect: null,
        attempts: null,
        lastError: null,
        nextAttemptAt: null,
        leased: false,
        parkedAt: null,
        history: [],
      };
    }
    const due = row.status === "pending" && row.next_attempt_at !== HELD_TURN_AT ? row.next_attempt_at : null;
    return {
      key,
      status: row.status,
      effect: row.effect,
      attempts: row.attempts,
      lastError: row.last_error,
      nextAttemptAt: due,
      leased: row.leased === 1,
      parkedAt: row.status === "pending" || row.status === "done" ? null : row.parked_at,
      history: row.story === null ? [] : (JSON.parse(row.story) as AttemptStory[]),
    };
  }

  /** `columns` of the outbox row `key` where it is: live, else done in a kept filed table (by key, newest first). */
  private rowOf<T extends Record<string, SqlStorageValue>>(columns: string, key: string, filed: number[]): T | undefined {
    const [live] = this.sql.all<T>(`SELECT ${columns} FROM outbox AS o WHERE idempotency_key = ?`, key);
    if (live) return live;
    for (const g of filed) {
      const [done] = this.sql.all<T>(
        `SELECT ${columns} FROM ${filedTable(g)} AS o WHERE idempotency_key = ? AND done_at IS NOT NULL`,
        key,
      );
      if (done) return done;
    }
    return undefined;
  }
}
