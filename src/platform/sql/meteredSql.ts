import { AsyncTransaction, checkBindings } from "./sqlLimits";

/**
 * The shard's one door to SQLite: runs a statement to completion and adds the rows it wrote
 * (Cloudflare bills per row written, index rows included) to a running total, so the cost
 * per event is measured rather than estimated. It refuses what Cloudflare refuses and local
 * workerd accepts (sqlLimits.ts): a value over 2 MB, a transaction callback returning a promise.
 */
export class MeteredSql {
  rowsWritten = 0;
  /** Rows read, as Durable Objects bill them: how much of a table a statement walked (tests hold the hot path to index ranges with it). */
  rowsRead = 0;
  /** Statements run (each `exec`): the CPU a turn spends in SQLite is mostly per statement (tests hold the hot path's count with it). */
  statements = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: Pick<DurableObjectStorage, "transactionSync">,
  ) {}

  /** The storage this door opens on: what is remembered per object is keyed by it (recording/outboxMemory.ts). */
  get storageKey(): object {
    return this.sql;
  }

  /** Runs `fn` in one SQLite transaction: all of its writes or none (a throw rolls back). */
  transaction<T>(fn: () => T): T {
    return this.storage.transactionSync(() => {
      const result = fn();
      // Thrown inside, so the transaction rolls back: what ran after the callback's first await was never in it.
      if (typeof (result as { then?: unknown } | null)?.then === "function") throw new AsyncTransaction();
      return result;
    });
  }

  all<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    checkBindings(bindings);
    this.statements++;
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    // Only exact once the cursor is exhausted.
    this.rowsWritten += cursor.rowsWritten;
    this.rowsRead += cursor.rowsRead;
    return rows;
  }

  one<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T {
    const [row] = this.all<T>(query, ...bindings);
    if (row === undefined) throw new Error(`expected one row from: ${query.slice(0, 80)}`);
    return row;
  }

  /** Runs a write and reports how many rows it returned (use with RETURNING). */
  count(query: string, ...bindings: unknown[]): number {
    return this.all(query, ...bindings).length;
  }
}
