import { log } from "../platform/log";
import type { MeteredSql } from "../platform/sql/meteredSql";

/**
 * Live rows a filing carries forward at most, in its one transaction: with a bigger backlog (Slack
 * down for hours) the filing waits for it to drain — done rows are kept longer, nothing is lost.
 */
export const MAX_CARRIED = 50_000;

/** The table an outbox generation was filed as: its done rows, kept for their stories, dropped whole. */
export const filedTable = (generation: number) => `outbox_g${generation}`;

/**
 * The outbox filed by generation, as receipts are (receipts.ts), so a done row — delivered, kept with
 * its story (outbox.ts `complete`) — costs no row to prune. The live table is always `outbox`: every
 * claim, count, turn and fence reads it as before, by its indexes and keys. Once a generation
 * (`floor(t / retention)`) has ended, `file` renames `outbox` to `outbox_g{that generation}` and
 * begins a new `outbox` with the same schema, carrying its live rows (pending, parked, stopped,
 * waiting: rare) forward — one row written each, once a generation. A filed table is read only by
 * key, for a done row's story (eventStoryRows.ts), and dropped whole when its generation expires
 * (DROP TABLE: no row written), with the receipts of the same generation. A filed table still
 * holds the rows carried forward, as they were: only its done rows are ever read.
 */
export class OutboxFiling {
  /** Generations filed (a table each); read from the schema at first use. */
  private filed?: Set<number>;

  constructor(
    private readonly sql: MeteredSql,
    private readonly retentionMs: number,
  ) {}

  private generationAt(now: number): number {
    return Math.floor(now / this.retentionMs);
  }

  private known(): Set<number> {
    this.filed ??= new Set(
      this.sql
        .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'outbox_g[0-9]*'")
        .map((table) => Number(table.name.slice("outbox_g".length))),
    );
    return this.filed;
  }

  /** The filed generations whose done rows are kept at `now` (the one before this; none older), newest first. */
  kept(now: number): number[] {
    const oldest = this.generationAt(now) - 1;
    return [...this.known()].filter((g) => g >= oldest).sort((a, b) => b - a);
  }

  /**
   * A shard that never filed begins now: an empty table marks the generation before this one as
   * filed, so the first filing comes when this generation ends (nothing to carry at once). Made
   * where a receipt generation's table is (before the ingest transaction, never inside it: a table
   * created there would vanish with a rollback while this instance still believed in it), so a
   * schema change comes with a schema change, not with an alarm's minute.
   */
  mark(now: number): void {
    if (this.known().size === 0) this.begin(this.generationAt(now) - 1, false);
  }

  /** Files the outbox if a generation has ended since it was begun (marking it first if it never was), and drops the filed tables that expired. */
  file(now: number): void {
    const generation = this.generationAt(now);
    const filed = this.known();
    try {
      this.sql.transaction(() => {
        const latest = filed.size === 0 ? undefined : Math.max(...filed);
        if (latest === undefined) this.begin(generation - 1, false);
        else if (latest < generation - 1 && this.carriable()) this.begin(generation - 1, true);
        for (const old of [...filed].filter((g) => g < generation - 1)) this.sql.all(`DROP TABLE IF EXISTS ${filedTable(old)}`);
      });
    } catch (error) {
      this.filed = undefined; // rolled back: read again from the schema
      throw error;
    }
    for (const old of [...filed].filter((g) => g < generation - 1)) filed.delete(old);
  }

  /** Whether the live rows fit in one filing (a read bounded by MAX_CARRIED live rows; done rows on the way are passed over). */
  private carriable(): boolean {
    const { n } = this.sql.one<{ n: number }>(
      "SELECT count(*) AS n FROM (SELECT 1 FROM outbox WHERE done_at IS NULL LIMIT ?)",
      MAX_CARRIED + 1,
    );
    if (n <= MAX_CARRIED) return true;
    log("warn", "outbox filing postponed: backlog too big to carry", { live: `> ${MAX_CARRIED}` });
    return false;
  }

  /** When `file` has work next: when the generation after the last filed one ends; now if none was filed yet. */
  nextFilingAt(now: number): number {
    const filed = this.known();
    if (filed.size === 0) return now;
    return Math.max(now, (Math.min(...filed) + 2) * this.retentionMs);
  }

  /**
   * Files `outbox` as `generation` (`carry`: with its rows; else only an empty table of its
   * schema, the first filing's mark), and begins a new `outbox` with the live rows. The indexes
   * are built again on the new table (names are the schema's, so the old ones are dropped first:
   * they held live rows only). The one full read of the table a generation costs: rows read.
   */
  private begin(generation: number, carry: boolean): void {
    const schema = this.sql.all<{ type: string; name: string; sql: string }>(
      "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'outbox' AND sql IS NOT NULL ORDER BY type = 'index', name",
    );
    const table = schema.find((entry) => entry.type === "table");
    if (!table) throw new Error("outbox has no schema");
    const target = filedTable(generation);
    if (!carry) {
      this.sql.all(table.sql.replace(/^CREATE TABLE\s+("?)outbox\1/i, `CREATE TABLE ${target}`));
    } else {
      for (const index of schema.filter((entry) => entry.type === "index")) this.sql.all(`DROP INDEX ${index.name}`);
      this.sql.all(`ALTER TABLE outbox RENAME TO ${target}`);
      this.sql.all(table.sql);
      this.sql.all(`INSERT INTO outbox SELECT * FROM ${target} WHERE done_at IS NULL`);
      for (const index of schema.filter((entry) => entry.type === "index")) this.sql.all(index.sql);
    }
    this.known().add(generation);
  }
}
