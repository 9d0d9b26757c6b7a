import receiptsAndOutbox from "../../../migrations/0001_receipts_and_outbox.sql";
import steps from "../../../migrations/0002_steps.sql";
import watch from "../../../migrations/0003_watch.sql";
import metrics from "../../../migrations/0004_metrics.sql";
import receiptGenerations from "../../../migrations/0005_receipt_generations.sql";
import appRateLimited from "../../../migrations/0006_app_rate_limited.sql";
import bucketLayouts from "../../../migrations/0007_bucket_layouts.sql";
import parkFollowUps from "../../../migrations/0008_park_follow_ups.sql";
import layoutRouting from "../../../migrations/0009_layout_routing.sql";
import assistantThreads from "../../../migrations/0010_assistant_threads.sql";
import threadContextOrder from "../../../migrations/0011_thread_context_order.sql";
import uncertainPosts from "../../../migrations/0012_uncertain_posts.sql";
import waits from "../../../migrations/0013_waits.sql";
import turns from "../../../migrations/0014_turns.sql";
import turnLeads from "../../../migrations/0015_turn_leads.sql";
import dueRows from "../../../migrations/0016_due_rows.sql";
import databaseSize from "../../../migrations/0017_database_size.sql";
import conversationStops from "../../../migrations/0018_conversation_stops.sql";
import stoppedRuns from "../../../migrations/0019_stopped_runs.sql";
import waitAnswerers from "../../../migrations/0020_wait_answerers.sql";
import releasedTurns from "../../../migrations/0021_released_turns.sql";
import turnBudgets from "../../../migrations/0022_turn_budgets.sql";
import mergedTurns from "../../../migrations/0023_merged_turns.sql";
import sessionTitles from "../../../migrations/0024_session_titles.sql";
import effectStories from "../../../migrations/0025_effect_stories.sql";
import doneRows from "../../../migrations/0026_done_rows.sql";
import automaticSpread from "../../../migrations/0027_automatic_spread.sql";
import foldedReceipts from "../../../migrations/0028_folded_receipts.sql";
import { type MigrationId, SchemaNewerThanCode } from "../errors";

export interface Migration {
  /** Monotonically increasing; an applied migration is never edited, only followed. */
  id: number;
  name: string;
  sql: string;
}

/** Every schema change, in order. Add a new file under migrations/ and a line here. */
export const MIGRATIONS: readonly Migration[] = [
  { id: 1, name: "0001_receipts_and_outbox", sql: receiptsAndOutbox },
  { id: 2, name: "0002_steps", sql: steps },
  { id: 3, name: "0003_watch", sql: watch },
  { id: 4, name: "0004_metrics", sql: metrics },
  { id: 5, name: "0005_receipt_generations", sql: receiptGenerations },
  { id: 6, name: "0006_app_rate_limited", sql: appRateLimited },
  { id: 7, name: "0007_bucket_layouts", sql: bucketLayouts },
  { id: 8, name: "0008_park_follow_ups", sql: parkFollowUps },
  { id: 9, name: "0009_layout_routing", sql: layoutRouting },
  { id: 10, name: "0010_assistant_threads", sql: assistantThreads },
  { id: 11, name: "0011_thread_context_order", sql: threadContextOrder },
  { id: 12, name: "0012_uncertain_posts", sql: uncertainPosts },
  { id: 13, name: "0013_waits", sql: waits },
  { id: 14, name: "0014_turns", sql: turns },
  { id: 15, name: "0015_turn_leads", sql: turnLeads },
  { id: 16, name: "0016_due_rows", sql: dueRows },
  { id: 17, name: "0017_database_size", sql: databaseSize },
  { id: 18, name: "0018_conversation_stops", sql: conversationStops },
  { id: 19, name: "0019_stopped_runs", sql: stoppedRuns },
  { id: 20, name: "0020_wait_answerers", sql: waitAnswerers },
  { id: 21, name: "0021_released_turns", sql: releasedTurns },
  { id: 22, name: "0022_turn_budgets", sql: turnBudgets },
  { id: 23, name: "0023_merged_turns", sql: mergedTurns },
  { id: 24, name: "0024_session_titles", sql: sessionTitles },
  { id: 25, name: "0025_effect_stories", sql: effectStories },
  { id: 26, name: "0026_done_rows", sql: doneRows },
  { id: 27, name: "0027_automatic_spread", sql: automaticSpread },
  { id: 28, name: "0028_folded_receipts", sql: foldedReceipts },
];

/**
 * Applies the migrations this shard has not seen yet, all in one transaction, and records
 * each id (PRAGMA user_version is not on Durable Objects' allow-list). Safe to call on every
 * construction: applied ids are skipped. Returns the ids it applied. Throws SchemaNewerThanCode,
 * changing nothing, when the shard has a migration newer than every one of `migrations` (a
 * rollback past a migration): this code must not run on that schema.
 */
export function applyMigrations(storage: DurableObjectStorage, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const { sql } = storage;
  return storage.transactionSync(() => {
    sql.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const newest = newestApplied(storage);
    const known = newestOf(migrations);
    if (newest && newest.id > (known?.id ?? 0)) throw new SchemaNewerThanCode(newest, known);
    const last = newest?.id ?? 0;
    const pending = migrations.filter((m) => m.id > last).sort((a, b) => a.id - b.id);
    for (const migration of pending) {
      sql.exec(migration.sql);
      sql.exec("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)", migration.id, migration.name, Date.now());
    }
    return pending.map((m) => m.id);
  });
}

/** The newest migration recorded in `schema_migrations` (one look-up of its primary key), or null. */
export function newestApplied(storage: DurableObjectStorage): MigrationId | null {
  const [row] = storage.sql
    .exec<{ id: number; name: string }>("SELECT id, name FROM schema_migrations ORDER BY id DESC LIMIT 1")
    .toArray();
  return row ? { id: row.id, name: row.name } : null;
}

/** The newest of a list of migrations, or null for none. */
function newestOf(migrations: readonly Migration[]): MigrationId | null {
  const newest = migrations.reduce<Migration | null>((a, b) => (a === null || b.id > a.id ? b : a), null);
  return newest ? { id: newest.id, name: newest.name } : null;
}

/** Whether this shard has ever been migrated — a read only, so asking creates no storage. */
export function hasSchema(storage: DurableObjectStorage): boolean {
  return storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").toArray().length > 0;
}
