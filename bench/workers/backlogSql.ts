import { NOT_HELD } from "product:src/recording/turnMarks.ts";

/**
 * The bench's own SQL on a shard's `outbox` (`npm run bench -- --backlog`, bench/workers/backlogCoordinator.ts):
 * rows written straight into the table, as a Slack outage leaves them, and due rows made due now.
 * Never in the shipped code: it bypasses the outbox's memory (counts, leases), so the bench restarts
 * the runtime after seeding and the new instance learns the rows by its walk, as after a deploy.
 */

/** A row's place in the mix, by its number i: 1 in 20 parked, 1 in 100 leased (up to `leasedMax`), the rest waiting. */
export interface SeedBatch {
  workspace: string;
  /** Rows numbered from `from` (1-based), `count` of them. */
  from: number;
  count: number;
  /** The whole seed's leased rows stop at this many (an instance holds at most ~4,200 leases: 64 in flight, 4,096 in line, a sweep's batches). */
  leasedMax: number;
  /** Waiting rows are due from here on, one more second per row number modulo an hour (a retry's backoff). */
  dueFrom: number;
  /** When the seeded leases and the rows' age are counted from. */
  now: number;
  /** The leases of the seeded leased rows run out then (after the measurement). */
  leaseUntil: number;
  /** False: every row waiting (the alarm phase's rows); true: the outage's mix above. */
  mixed: boolean;
  /** Each row's chat.postMessage rate key by channel number (callRateKey's format). */
  rateKeys: readonly string[];
}

/** Channels the seeded replies go to (their rate keys). */
export const SEED_CHANNELS = 8;
/** The channel a seeded row posts to, by its channel number; the drain counts the fake's calls to these. */
export const SEED_CHANNEL_PREFIX = "CBACKLOG";
/** A seeded row's key, `Bk{n}{w|l|p}:reply`: numbered, so the kinds interleave in key order as real keys' would. */
const KEY = "'Bk' || printf('%08d', i) || CASE kind WHEN 'leased' THEN 'l' WHEN 'parked' THEN 'p' ELSE 'w' END || ':reply'";

/**
 * One batch in one statement: `WITH RECURSIVE` numbers the rows, each a `slack.api` chat.postMessage
 * into its own thread with a text of 1,000–3,999 characters (a payload of ~1.1–4.1 KB), 3 attempts
 * made and the last one's error kept, as the rows of an hour-long outage are.
 */
export function seedStatement(batch: SeedBatch): { query: string; bindings: unknown[] } {
  const query = `
    WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?1 + ?2 - 1),
    mix(i, kind) AS (
      SELECT i, CASE WHEN ?10 = 0 THEN 'waiting' WHEN i % 20 = 1 THEN 'parked' WHEN i % 100 = 2 AND i / 100 < ?3 THEN 'leased' ELSE 'waiting' END FROM n)
    INSERT INTO outbox (idempotency_key, workspace, effect, payload, rate_key, status, attempts, next_attempt_at,
      claim_token, claim_expires_at, claimed_at, last_error, created_at, parked_at)
    SELECT ${KEY}, ?4, 'slack.api',
      json_object('type', 'slack.api', 'method', 'chat.postMessage', 'body', json_object(
        'channel', '${SEED_CHANNEL_PREFIX}' || (i % ${SEED_CHANNELS}),
        'thread_ts', printf('%d.%06d', CAST(?6 / 1000 AS INTEGER) - 7200 + i / 1000, i % 1000000),
        'text', printf('%.*c', 1000 + (i * 7919) % 3000, 'x'))),
      json_extract(?9, '$[' || (i % ${SEED_CHANNELS}) || ']'),
      CASE kind WHEN 'parked' THEN 'parked' ELSE 'pending' END, 3,
      ?5 + (i % 3600) * 1000,
      CASE kind WHEN 'leased' THEN 'bench-dead-instance' END,
      CASE kind WHEN 'leased' THEN ?7 END,
      CASE kind WHEN 'leased' THEN ?6 END,
      'HTTP 503 service_unavailable', ?6 - 3600000 + i % 3600000,
      CASE kind WHEN 'parked' THEN ?8 END
    FROM mix`;
  return {
    query,
    bindings: [
      batch.from,
      batch.count,
      batch.leasedMax,
      batch.workspace,
      batch.dueFrom,
      batch.now,
      batch.leaseUntil,
      batch.now,
      JSON.stringify(batch.rateKeys),
      batch.mixed ? 1 : 0,
    ],
  };
}

/** How many of rows 1..n are parked, leased and waiting, as seedStatement mixes them. */
export function seedMix(n: number, leasedMax: number): { waiting: number; leased: number; parked: number } {
  const parked = Math.floor((n + 19) / 20);
  // Rows 2, 102, 202, … while their hundred is below leasedMax.
  const leased = n < 2 ? 0 : Math.min(leasedMax, Math.floor((n - 2) / 100) + 1);
  return { waiting: n - parked - leased, leased, parked };
}

/**
 * The first `limit` waiting rows (in the order the sweep takes them, from `outbox_due`) made due
 * at `now`: the recovery's moment for that many rows, in one statement.
 */
export const MAKE_DUE = `
  UPDATE outbox SET next_attempt_at = ?1 WHERE idempotency_key IN (
    SELECT idempotency_key FROM outbox INDEXED BY outbox_due
     WHERE status = 'pending' AND claim_token IS NULL AND ${NOT_HELD} AND next_attempt_at > ?1
     ORDER BY next_attempt_at LIMIT ?2)
  RETURNING 1`;
