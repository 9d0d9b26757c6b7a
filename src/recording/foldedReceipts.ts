import type { MeteredSql } from "../platform/sql/meteredSql";
import { filedTable, type OutboxFiling } from "./outboxFiling";
import type { ReceiptStory } from "./receiptStory";

/**
 * A receipt carried by an outbox row (migrations/0028_folded_receipts.sql): the delivery's own —
 * on its first row `{dedupe key}:{effect name}` — or a fact-scoped row's `fact:{row key}`.
 */
export interface FoldedReceipt {
  key: string;
  kind: string;
  type: string;
  retryNum: number | null;
  retryReason: string | null;
  /** The ack body (JSON), so a duplicate is acked the same. */
  response: string | null;
  receivedAt: number;
  story?: ReceiptStory;
}

/** The receipt's columns of an outbox row, in the order `foldedValues` gives them. */
export const FOLDED_COLUMNS =
  "receipt_key, receipt_kind, receipt_type, retry_num, retry_reason, response, received_at, channel, user_id, thread_ts, effects, receipt_payload";

/** The values of FOLDED_COLUMNS: all null for a row that carries no receipt. */
export function foldedValues(receipt: FoldedReceipt | undefined): (string | number | null)[] {
  if (!receipt) return Array(12).fill(null);
  const { story } = receipt;
  return [
    receipt.key,
    receipt.kind,
    receipt.type,
    receipt.retryNum,
    receipt.retryReason,
    receipt.response,
    receipt.receivedAt,
    story?.channel ?? null,
    story?.user ?? null,
    story?.thread ?? null,
    story?.effects ?? null,
    story?.payload ?? null,
  ];
}

/** A row's receipt columns named as a receipt table's (receipts.ts), for the readers of both. */
export const AS_RECEIPT =
  "receipt_key AS dedupe_key, receipt_kind AS kind, receipt_type AS type, workspace, retry_num, retry_reason, response, received_at, channel, user_id, thread_ts, effects, receipt_payload AS payload";

/**
 * The receipts outbox rows carry, read by key: in `outbox` and in the kept filed generations
 * (outboxFiling.ts) — a primary-key range for a delivery's receipt (`{key}:` … `{key};`: any of
 * its rows, whatever its effects are named), the exact row for a fact receipt — and only those
 * received in the receipt window (this generation and the one before, as the receipt tables keep).
 */
export class FoldedReceipts {
  /** Filed tables known to have the receipt's columns (filed since 0028) or not (filed before). */
  private readonly folding = new Map<string, boolean>();

  constructor(
    private readonly sql: MeteredSql,
    private readonly filing: OutboxFiling,
    private readonly retentionMs: number,
  ) {}

  /** `outbox`, then the kept filed tables that can carry receipts, newest first. */
  tables(now: number): string[] {
    return [
      "outbox",
      ...this.filing
        .kept(now)
        .map(filedTable)
        .filter((table) => this.carries(table)),
    ];
  }

  private carries(table: string): boolean {
    let known = this.folding.get(table);
    if (known === undefined) {
      known = this.sql.all("SELECT 1 FROM pragma_table_info(?) WHERE name = 'receipt_key'", table).length > 0;
      this.folding.set(table, known);
    }
    return known;
  }

  /** The oldest receipt time still inside the window at `now`. */
  since(now: number): number {
    return (Math.floor(now / this.retentionMs) - 1) * this.retentionMs;
  }

  /**
   * `columns` of the first row carrying the receipt `key` (received inside the window), where it is:
   * a delivery's by the range of its rows' keys; a fact receipt's (`fact:{row key}`) by its row's key
   * too — a re-run of a fact-keyed delivery has a `fact:` dedupe key of its own, found by range.
   */
  find<T extends Record<string, SqlStorageValue>>(columns: string, key: string, now: number): T | undefined {
    // One statement each, tried in turn: the story's reads show each plan a key look-up or a key range.
    for (const { select, values } of this.lookUps(columns, key, now)) {
      const [row] = this.sql.all<T>(`${select} LIMIT 1`, ...values);
      if (row) return row;
    }
    return undefined;
  }

  /**
   * The look-ups `find` makes, as SELECTs of `columns` (each a key look-up or a key range) in the order
   * they are tried, each with its values (`?` in order): joinable by UNION ALL into one statement, with
   * others too (receipts.ts `seen`) — a statement costs a shard's thread far more than a look-up in it.
   */
  lookUps(columns: string, key: string, now: number): { select: string; values: unknown[] }[] {
    const since = this.since(now);
    return this.tables(now).flatMap((table) => [
      {
        select: `SELECT ${columns} FROM ${table} WHERE idempotency_key >= ? AND idempotency_key < ? AND receipt_key = ? AND received_at >= ?`,
        values: [`${key}:`, `${key};`, key, since],
      },
      ...(key.startsWith("fact:")
        ? [
            {
              select: `SELECT ${columns} FROM ${table} WHERE idempotency_key = ? AND receipt_key = ? AND received_at >= ?`,
              values: [key.slice("fact:".length), key, since],
            },
          ]
        : []),
    ]);
  }

  /**
   * Receipts rows carry inside the window: live ones, and done ones filed (a filed table's live rows
   * were carried forward). A filing made late holds older rows too: the window is by received time.
   */
  count(now: number): number {
    return this.tables(now).reduce(
      (n, table) =>
        n +
        this.sql.one<{ n: number }>(
          `SELECT count(*) AS n FROM ${table} WHERE receipt_key IS NOT NULL AND received_at >= ?${table === "outbox" ? "" : " AND done_at IS NOT NULL"}`,
          this.since(now),
        ).n,
      0,
    );
  }
}

/**
 * What a DELETE of outbox rows does first — a discarded dead letter, a stopped run pruned after a
 * day (either may be inside the receipt window): the receipts those rows carry are kept as receipt
 * rows, so a retry is still a duplicate. One row more, on those rare paths only. Set by the shard's
 * recording (`Receipts.keepFolded`); the watch's outbox carries no receipt.
 */
export class ReceiptKeeper {
  /** Keeps the receipts of the outbox rows `where` (its `?n` bound to `values`) selects. */
  keep: (where: string, values: readonly SqlStorageValue[]) => void = () => {};
}
