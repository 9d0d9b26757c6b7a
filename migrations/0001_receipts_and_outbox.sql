-- One row per accepted Slack delivery. The dedupe key IS the dedupe: an
-- INSERT … ON CONFLICT DO NOTHING RETURNING decides "first delivery?" race-free.
-- Receipts are filed by generation, floor(received_at / retention): a delivery is
-- a duplicate if its key is in the current or the previous generation, and pruning
-- deletes whole older generations by primary-key prefix. No secondary index, so a
-- receipt costs one row written to record and one to prune.
CREATE TABLE receipts (
  generation   INTEGER NOT NULL,
  dedupe_key   TEXT NOT NULL,
  kind         TEXT NOT NULL,
  type         TEXT NOT NULL,
  workspace    TEXT NOT NULL,
  retry_num    INTEGER,
  retry_reason TEXT,
  response     TEXT,
  received_at  INTEGER NOT NULL,
  PRIMARY KEY (generation, dedupe_key)
) WITHOUT ROWID;

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
