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

-- The transactional outbox: side effects recorded with the receipt, delivered
-- afterwards, at least once. Only undelivered rows live here: a delivered row is
-- deleted by its fenced completion, so the claim scan covers the live backlog
-- alone and no index has to be written per event. Parked rows are the
-- dead-letter queue and stay until replayed or discarded.
CREATE TABLE outbox (
  idempotency_key  TEXT PRIMARY KEY,   -- the row's id: "{dedupe key}:{effect name}"
  workspace        TEXT NOT NULL,
  effect           TEXT NOT NULL,      -- Effect.type, e.g. "slack.api"
  payload          TEXT NOT NULL,      -- the Effect as JSON
  rate_key         TEXT,               -- Slack rate-limit bucket, e.g. "chat.postMessage:C123"
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'parked')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  claim_token      TEXT,
  claim_expires_at INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  parked_at        INTEGER
) WITHOUT ROWID;
