import { MeteredSql } from "./meteredSql";
import { applyMigrations, hasSchema, MIGRATIONS, type Migration } from "./migrations";

/**
 * A Durable Object's SQLite as its parts share it: the one metered door, and the schema, applied
 * at the first write. An object nobody wrote to has none, and its reads answer empty and keep it so.
 */
export class Schema {
  readonly sql: MeteredSql;
  migrated = false;

  constructor(
    readonly storage: DurableObjectStorage,
    private readonly migrations: readonly Migration[] = MIGRATIONS,
  ) {
    this.sql = new MeteredSql(storage.sql, storage);
  }

  /** Applies pending migrations; synchronous, so it commits before any other request runs. */
  migrate(): void {
    if (this.migrated) return;
    applyMigrations(this.storage, this.migrations);
    this.migrated = true;
  }

  /** In the constructor, under blockConcurrencyWhile: an object that has a schema gets its pending migrations. */
  open(): void {
    if (hasSchema(this.storage)) this.migrate();
  }
}
