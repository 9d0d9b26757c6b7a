-- One row per accepted Slack delivery. The primary key IS the dedupe: an
-- INSERT … ON CONFLICT DO NOTHING RETURNING decides "first delivery?" race-free.
CREATE TABLE receipts (
  dedupe_key   TEXT PRIMARY KEY,
  kind         TEXT NOT NULL,
  type         TEXT NOT NULL,
  workspace    TEXT NOT NULL,
  retry_num    INTEGER,
  retry_reason TEXT,
  response     TEXT,
  received_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- Pruning walks receipts oldest first.
CREATE INDEX receipts_by_age ON receipts (received_at);

-- The transactional outbox: side effects recorded with the receipt, delivered later.
CREATE TABLE outbox (
  id               INTEGER PRIMARY KEY,
  idempotency_key  TEXT NOT NULL UNIQUE,
  workspace        TEXT NOT NULL,
  effect           TEXT NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'parked')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  claim_token      TEXT,
  claim_expires_at INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  completed_at     INTEGER
);

-- Serves the claim query: only live rows are indexed, in due order.
CREATE INDEX outbox_claimable ON outbox (next_attempt_at) WHERE status = 'pending';
