import { type MigrationId, SchemaNewerThanCode } from "../errors";
import { MeteredSql } from "./meteredSql";
import { applyMigrations, hasSchema, MIGRATIONS, type Migration, newestApplied } from "./migrations";

/**
 * A Durable Object's SQLite as its parts share it: the one metered door, and the schema, applied
 * at the first write. An object nobody wrote to has none, and its reads answer empty and keep it so.
 * An object whose schema is newer than this code (a rollback past a migration) keeps the
 * refusal, and its facade refuses every request with it (`refuseIfNewer`).
 */
export class Schema {
  readonly sql: MeteredSql;
  migrated = false;
  /** The newest migration applied, once migrated (the operations API shows it). */
  applied: MigrationId | null = null;
  /** Set when the stored schema has a migration this code does not know: nothing may touch its tables. */
  refusal: SchemaNewerThanCode | null = null;

  constructor(
    readonly storage: DurableObjectStorage,
    private readonly migrations: readonly Migration[] = MIGRATIONS,
  ) {
    this.sql = new MeteredSql(storage.sql, storage);
  }

  /** Applies pending migrations; synchronous, so it commits before any other request runs. */
  migrate(): void {
    if (this.migrated) return;
    this.refuseIfNewer();
    try {
      applyMigrations(this.storage, this.migrations);
    } catch (error) {
      if (error instanceof SchemaNewerThanCode) this.refusal = error;
      throw error;
    }
    this.applied = newestApplied(this.storage);
    this.migrated = true;
  }

  /**
   * In the constructor, under blockConcurrencyWhile: an object that has a schema gets its pending
   * migrations. A schema newer than this code is kept as `refusal`, not thrown: a throw there
   * would reset the object at every request.
   */
  open(): void {
    if (!hasSchema(this.storage)) return;
    try {
      this.migrate();
    } catch (error) {
      if (!(error instanceof SchemaNewerThanCode)) throw error;
    }
  }

  /** The object's SQLite size in bytes: a property of the storage, nothing is scanned (Cloudflare allows 10 GB). */
  databaseSize(): number {
    return this.storage.sql.databaseSize;
  }

  /** Throws SchemaNewerThanCode when the stored schema is newer than this code: each RPC asks first. */
  refuseIfNewer(): void {
    if (this.refusal) throw this.refusal;
  }
}
