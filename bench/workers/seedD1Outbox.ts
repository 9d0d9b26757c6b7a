/**
 * The seed article's D1 receipt and outbox (/work/shared/seeds/000_…: "Durable intent before the
 * ack"), written here from its description: a receipt decided by one conditional INSERT, an
 * outbox row inserted idempotently in the same batch, claim-token leases that expire, and a
 * completion fenced to the token. Three departures, each so that no statement scans a table that
 * grows with the retention (bench/README.md, "The seeds' design"): the claimed rows come back
 * from the claim's RETURNING (the article reads them back by `claim_token`, which its schema does
 * not index), and the daily pruning has an index to walk on each table.
 */

/** Rows the statements read and wrote, summed in this isolate (in all and by statement), and the database's size after the latest one (D1's result meta). */
export const d1Usage = {
  statements: 0,
  rowsRead: 0,
  rowsWritten: 0,
  sizeAfter: 0,
  byStatement: {} as Record<string, { calls: number; rowsWritten: number; rowsRead: number }>,
};

interface D1Meta {
  rows_read?: number;
  rows_written?: number;
  size_after?: number;
}

function meter<T extends { meta: unknown }>(result: T, sql: string): T {
  const meta = result.meta as D1Meta;
  const key = sql.replace(/\s+/g, " ").slice(0, 90);
  const statement = d1Usage.byStatement[key] ?? { calls: 0, rowsWritten: 0, rowsRead: 0 };
  d1Usage.byStatement[key] = statement;
  statement.calls++;
  statement.rowsRead += meta.rows_read ?? 0;
  statement.rowsWritten += meta.rows_written ?? 0;
  d1Usage.statements++;
  d1Usage.rowsRead += meta.rows_read ?? 0;
  d1Usage.rowsWritten += meta.rows_written ?? 0;
  if (meta.size_after) d1Usage.sizeAfter = meta.size_after;
  return result;
}

/** One D1 batch (one transaction, statements in order): each statement's SQL and its bindings. */
async function batch<T = Record<string, unknown>>(db: D1Database, statements: Array<[string, ...unknown[]]>) {
  const prepared = statements.map(([sql, ...bindings]) => db.prepare(sql).bind(...bindings));
  return (await db.batch<T>(prepared)).map((result, i) => meter(result, statements[i]![0]));
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS slack_event_receipts (
     event_id TEXT PRIMARY KEY, event_type TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT, idempotency_key TEXT NOT NULL UNIQUE, effect TEXT NOT NULL,
     payload TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
     claim_token TEXT, claim_expires_at INTEGER, created_at INTEGER NOT NULL, completed_at INTEGER)`,
  "CREATE INDEX IF NOT EXISTS outbox_claimable ON outbox (status, claim_expires_at, id)",
  // Ours, for the daily pruning (the article prunes receipts "on a schedule" and keeps done rows).
  "CREATE INDEX IF NOT EXISTS receipts_received ON slack_event_receipts (received_at)",
  "CREATE INDEX IF NOT EXISTS outbox_done ON outbox (completed_at) WHERE status = 'done'",
];

let schema: Promise<unknown> | undefined;
/** Creates the tables once per isolate (a deployment would apply them as a D1 migration). */
export function ensureSchema(db: D1Database): Promise<unknown> {
  schema ??= batch(
    db,
    SCHEMA.map((sql) => [sql] as [string]),
  ).catch((error) => {
    schema = undefined;
    throw error;
  });
  return schema;
}

export interface SlackEnvelope {
  event_id: string;
  event: { type: string; [field: string]: unknown };
}

/**
 * The receipt and the outbox row in one batch (one transaction), before the ack. True when this
 * delivery inserted the receipt: `SELECT changes()` right after the INSERT reads its row count.
 */
export async function recordIntent(db: D1Database, envelope: SlackEnvelope, now: number): Promise<boolean> {
  const [, changes] = await batch<{ changes: number }>(db, [
    [
      "INSERT INTO slack_event_receipts (event_id, event_type, received_at) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING",
      envelope.event_id,
      envelope.event.type,
      now,
    ],
    ["SELECT changes() AS changes"],
    // Unconditional: on a redelivery the UNIQUE key absorbs it.
    [
      "INSERT INTO outbox (idempotency_key, effect, payload, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING",
      `${envelope.event_id}:reply`,
      "reply",
      JSON.stringify(envelope.event),
      now,
    ],
  ]);
  return changes?.results[0]?.changes === 1;
}

export interface OutboxRow {
  id: number;
  effect: string;
  payload: string;
  attempts: number;
}

/** Longer than the worst delivery: expiry, not release, frees a row a cancelled attempt held. */
const LEASE_MS = 10 * 60_000;
const CLAIM_BATCH = 25;
const MAX_ATTEMPTS = 5;

/** Leases up to CLAIM_BATCH pending rows (or those this token already holds) in one UPDATE. */
async function claimBatch(db: D1Database, token: string, now: number): Promise<OutboxRow[]> {
  const [claimed] = await batch<OutboxRow>(db, [
    [
      `UPDATE outbox SET claim_token = ?, claim_expires_at = ?
        WHERE id IN (SELECT id FROM outbox WHERE status = 'pending'
                       AND (claim_expires_at IS NULL OR claim_expires_at < ? OR claim_token = ?)
                     ORDER BY id LIMIT ?)
        RETURNING id, effect, payload, attempts`,
      token,
      now + LEASE_MS,
      now,
      token,
      CLAIM_BATCH,
    ],
  ]);
  return (claimed?.results ?? []).sort((a, b) => a.id - b.id);
}

/** Marks a row done only while this token still holds it (the fence). */
async function completeClaimed(db: D1Database, id: number, token: string, now: number): Promise<boolean> {
  const [, changes] = await batch<{ changes: number }>(db, [
    [
      "UPDATE outbox SET status = 'done', claim_token = NULL, claim_expires_at = NULL, completed_at = ? WHERE id = ? AND claim_token = ?",
      now,
      id,
      token,
    ],
    ["SELECT changes() AS changes"],
  ]);
  return changes?.results[0]?.changes === 1;
}

/** A failed attempt: counted, retried after a backoff (the lease's new expiry), parked once exhausted. */
async function recordFailure(db: D1Database, row: OutboxRow, token: string, now: number): Promise<void> {
  const status = row.attempts + 1 >= MAX_ATTEMPTS ? "parked" : "pending";
  await batch(db, [
    [
      "UPDATE outbox SET attempts = attempts + 1, status = ?, claim_expires_at = ? WHERE id = ? AND claim_token = ?",
      status,
      now + 2 ** row.attempts * 1000,
      row.id,
      token,
    ],
  ]);
}

/** The one claim-and-deliver loop: called by the request's waitUntil and by the cron tick alike. */
export async function sweepOutbox(db: D1Database, perform: (row: OutboxRow) => Promise<void>, now: () => number): Promise<void> {
  const token = crypto.randomUUID();
  for (const row of await claimBatch(db, token, now())) {
    try {
      await perform(row);
    } catch (error) {
      console.error(`outbox ${row.id}: ${String(error)}`);
      await recordFailure(db, row, token, now());
      continue;
    }
    if (!(await completeClaimed(db, row.id, token, now())))
      console.warn(`outbox ${row.id}: lease expired before the ack; another sweep owns it now`);
  }
}

/** Receipts and done rows older than the retention go, each with its index entries (a DELETE writes rows). */
export async function pruneBefore(db: D1Database, cutoff: number): Promise<void> {
  await batch(db, [
    ["DELETE FROM slack_event_receipts WHERE received_at < ?", cutoff],
    ["DELETE FROM outbox WHERE status = 'done' AND completed_at < ?", cutoff],
  ]);
}
