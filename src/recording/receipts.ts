import type { AckBody } from "../app/contract";
import type { Inbound } from "../inbound/types";
import type { MeteredSql } from "../platform/sql/meteredSql";
import type { PayloadKeeping } from "../settings/edge";
import { FOLDED_COLUMNS, type FoldedReceipt, type FoldedReceipts, foldedValues } from "./foldedReceipts";
import { addStoryColumns, type ReceiptStory, receiptStory, STORY_COLUMNS } from "./receiptStory";

/** The single receipts table of before 0005, renamed; read and pruned until it is empty, then dropped. */
const BEFORE_GENERATIONS = "receipts_before_generations";
/** Receipts of that table deleted per prune, so no alarm runs long. */
const LEGACY_PRUNE_BATCH = 500;

/** The table holding one generation's receipts. */
export const tableOf = (generation: number) => `receipts_g${generation}`;

/**
 * All SQL touching receipts. Receipts are filed by generation — `floor(received_at / retention)` —
 * one table per generation, so a receipt is kept at least one retention and less than two, a
 * delivery is a duplicate if its key is in the current or the previous generation's table, and
 * pruning a generation is DROP TABLE: no row written per receipt, where a DELETE writes one each.
 */
export class Receipts {
  /** The generations with a table; read from the schema at first use. */
  private generations?: Set<number>;
  /** Whether the table of before 0005 may still hold receipts. */
  private legacy = false;
  /** Generations whose table is known to have the story's columns. */
  private readonly withStory = new Set<number>();

  constructor(
    private readonly sql: MeteredSql,
    private readonly retentionMs: number,
    /** EVENT_PAYLOADS: how much of each payload a receipt keeps. */
    private readonly payloads: PayloadKeeping = "full",
    /** The receipts outbox rows carry (migrations/0028_folded_receipts.sql), read with these. */
    readonly folded?: FoldedReceipts,
  ) {}

  /** What a delivery's receipts keep of it besides its key (receiptStory.ts): made once per delivery. */
  storyOf(inbound: Inbound, effectKeys: readonly string[]): ReceiptStory {
    return receiptStory(inbound, effectKeys, this.payloads);
  }

  private generationAt(now: number): number {
    return Math.floor(now / this.retentionMs);
  }

  private known(): Set<number> {
    if (this.generations) return this.generations;
    const tables = this.sql.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND (name GLOB 'receipts_g[0-9]*' OR name = ?)",
      BEFORE_GENERATIONS,
    );
    // An empty table of before 0005 (every new shard has one) is dropped at once, so no look-up
    // falls through to it. First called outside any transaction (prepare, or the alarm's wake-up).
    if (tables.some((t) => t.name === BEFORE_GENERATIONS)) {
      this.legacy = this.sql.all(`SELECT 1 FROM ${BEFORE_GENERATIONS} LIMIT 1`).length > 0;
      if (!this.legacy) this.sql.all(`DROP TABLE ${BEFORE_GENERATIONS}`);
    }
    this.generations = new Set(tables.filter((t) => t.name !== BEFORE_GENERATIONS).map((t) => Number(t.name.slice(10))));
    return this.generations;
  }

  /**
   * A kept table begun by an earlier version gains the story's columns, once: a schema change
   * (a row of the schema each), never per receipt; a table only waiting to be dropped is left as it is.
   */
  private storied(generation: number): number {
    if (this.withStory.has(generation)) return generation;
    addStoryColumns(this.sql, tableOf(generation));
    this.withStory.add(generation);
    return generation;
  }

  /** The generations whose receipts are kept at `now` (this one and the one before), newest first, with the story's columns. */
  keptGenerations(now: number): number[] {
    const oldest = this.generationAt(now) - 1;
    return [...this.known()]
      .filter((g) => g >= oldest)
      .sort((a, b) => b - a)
      .map((g) => this.storied(g));
  }

  /**
   * Creates the current generation's table if it is new. Called before the ingest transaction,
   * never inside it: a table created there would vanish with a rollback while this instance
   * still believed in it.
   */
  prepare(now: number): void {
    const generation = this.generationAt(now);
    const generations = this.known();
    if (generations.has(generation)) {
      this.storied(generation);
      return;
    }
    this.sql.all(
      `CREATE TABLE IF NOT EXISTS ${tableOf(generation)} (
        dedupe_key   TEXT PRIMARY KEY,
        kind         TEXT NOT NULL,
        type         TEXT NOT NULL,
        workspace    TEXT NOT NULL,
        retry_num    INTEGER,
        retry_reason TEXT,
        response     TEXT,
        received_at  INTEGER NOT NULL,
        ${STORY_COLUMNS.map((column) => `${column} TEXT`).join(", ")}
      ) WITHOUT ROWID`,
    );
    generations.add(generation);
    this.withStory.add(generation);
  }

  /**
   * Whether the receipt `key` is held — in this generation's or the previous one's table, or
   * carried by an outbox row (foldedReceipts.ts): its delivery (its message, for `fact:…`) is a
   * duplicate. Read in the ingest's transaction, before what it writes: a shard is one thread and
   * the transaction synchronous, so two deliveries of one key cannot both find it unheld.
   */
  seen(key: string, now: number): boolean {
    // On every ingest: one statement for every place the receipt can be (a statement costs far more than a look-up in it).
    const lookUps = [...this.lookUps("1 AS one", key, now), ...(this.folded?.lookUps("1 AS one", key, now) ?? [])];
    const query = `${lookUps.map(({ select }) => select).join(" UNION ALL ")} LIMIT 1`;
    return lookUps.length > 0 && this.sql.all(query, ...lookUps.flatMap(({ values }) => values)).length > 0;
  }

  /**
   * Writes a receipt row: for a delivery (or a fact) whose receipt no outbox row carries — one with
   * no effect, or whose rows were all refused, merged or there already. The caller checked `seen`
   * in the same transaction; the primary key still makes a second insert a no-op.
   */
  record(receipt: FoldedReceipt, workspace: string): void {
    const generation = this.generationAt(receipt.receivedAt);
    // The caller prepared the table; if it did not (a bug), this throws and the delivery is not acked.
    this.sql.all(
      `INSERT INTO ${tableOf(generation)} (dedupe_key, kind, type, retry_num, retry_reason, response, received_at,
          channel, user_id, thread_ts, effects, payload, workspace)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
      ...foldedValues(receipt),
      workspace,
    );
  }

  /**
   * Keeps as receipt rows the receipts the outbox rows `where` selects carry, before a DELETE of
   * them (foldedReceipts.ts `ReceiptKeeper`): each in its generation's table while that is kept.
   */
  keepFolded(where: string, values: readonly SqlStorageValue[], now: number): void {
    // Mostly none (an hourly prune with nothing stopped): one read, and no table touched.
    if (this.sql.all(`SELECT 1 FROM outbox WHERE receipt_key IS NOT NULL AND (${where}) LIMIT 1`, ...values).length === 0) return;
    for (const generation of this.keptGenerations(now)) {
      this.sql.all(
        `INSERT INTO ${tableOf(generation)} (dedupe_key, kind, type, retry_num, retry_reason, response, received_at,
            channel, user_id, thread_ts, effects, payload, workspace)
         SELECT ${FOLDED_COLUMNS}, workspace FROM outbox WHERE receipt_key IS NOT NULL
           AND received_at >= ${generation * this.retentionMs} AND received_at < ${(generation + 1) * this.retentionMs} AND (${where})
         ON CONFLICT (dedupe_key) DO NOTHING`,
        ...values,
      );
    }
  }

  /**
   * Look-ups of `columns` of the receipt `key`, in turn: this generation's and the previous one's tables,
   * then the table of before 0005 (its receipts of the current generation were written before the upgrade).
   */
  private lookUps(columns: string, key: string, now: number): { select: string; values: unknown[] }[] {
    const generation = this.generationAt(now);
    const known = this.known();
    const selects = [generation, generation - 1]
      .filter((g) => known.has(g))
      .map((g) => ({ select: `SELECT ${columns} FROM ${tableOf(g)} WHERE dedupe_key = ?`, values: [key] }));
    if (!this.legacy) return selects;
    const legacy = `SELECT ${columns} FROM ${BEFORE_GENERATIONS} WHERE generation >= ? AND dedupe_key = ?`;
    return [...selects, { select: legacy, values: [generation - 1, key] }];
  }

  /** The ack body the first delivery was acked with, so a duplicate is acked the same. */
  responseOf(dedupeKey: string, now: number): AckBody | undefined {
    const [row] = this.lookUps("response", dedupeKey, now).flatMap(({ select, values }) =>
      this.sql.all<{ response: string | null }>(select, ...values),
    );
    const response = row ? row.response : this.folded?.find<{ response: string | null }>("response", dedupeKey, now)?.response;
    return response ? (JSON.parse(response) as AckBody) : undefined;
  }

  /**
   * Drops the tables of generations older than the previous one, and deletes a batch of expired
   * receipts from the table of before 0005 (dropping it once empty). Returns how many receipts
   * of that table remain to delete in a later call (0 when pruning is complete).
   */
  pruneExpired(now: number): number {
    const oldest = this.generationAt(now) - 1;
    const generations = this.known();
    for (const generation of [...generations].filter((g) => g < oldest)) {
      this.sql.all(`DROP TABLE IF EXISTS ${tableOf(generation)}`);
      generations.delete(generation);
    }
    if (!this.legacy) return 0;
    const deleted = this.sql.count(
      `DELETE FROM ${BEFORE_GENERATIONS} WHERE (generation, dedupe_key) IN (
         SELECT generation, dedupe_key FROM ${BEFORE_GENERATIONS} WHERE generation < ? ORDER BY generation LIMIT ?)
       RETURNING 1`,
      oldest,
      LEGACY_PRUNE_BATCH,
    );
    if (deleted === LEGACY_PRUNE_BATCH) return 1;
    if (this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM ${BEFORE_GENERATIONS}`).n === 0) {
      this.sql.all(`DROP TABLE ${BEFORE_GENERATIONS}`);
      this.legacy = false;
    }
    return 0;
  }

  /** When the oldest receipts become prunable (now, if they already are), or null when there are none. */
  nextPruneAt(now: number): number | null {
    const generations = [...this.known()];
    if (this.legacy) {
      const { generation } = this.sql.one<{ generation: number | null }>(
        `SELECT min(generation) AS generation FROM ${BEFORE_GENERATIONS}`,
      );
      // An empty table of before 0005 is dropped by the next prune: now.
      generations.push(generation ?? this.generationAt(now) - 2);
    }
    if (generations.length === 0) return null;
    return Math.max(now, (Math.min(...generations) + 2) * this.retentionMs);
  }

  /** Receipts held: of deliveries, and of messages whose effects are fact-scoped — as rows, or carried by outbox rows. */
  count(now = Date.now()): number {
    const tables = [...this.known()].map(tableOf);
    if (this.legacy) tables.push(BEFORE_GENERATIONS);
    const rows = tables.reduce((n, table) => n + this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).n, 0);
    return rows + (this.folded?.count(now) ?? 0);
  }
}
