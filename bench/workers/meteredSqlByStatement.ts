import { MeteredSql as ProductMeteredSql } from "product:src/platform/sql/meteredSql.ts";
import { recordStatement } from "./statementMeter";

/**
 * Swapped in for src/platform/sql/meteredSql.ts by scripts/build-bench.mjs in the metered build only:
 * the product's own class, plus a per-statement tally of the rows each query wrote and read.
 */
export class MeteredSql extends ProductMeteredSql {
  override all<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    const written = this.rowsWritten;
    const read = this.rowsRead;
    const rows = super.all<T>(query, ...bindings);
    recordStatement(query, this.rowsWritten - written, this.rowsRead - read);
    return rows;
  }
}
