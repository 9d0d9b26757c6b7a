-- A stop is an outcome, not a failure (issue 46): a run its user stopped (the stop button) or a newer
-- message interrupted (`turns: "interrupt"`) is no longer parked — never listed among the dead
-- letters, alerted on or replayed — but kept as `status = 'stopped'`, outside `outbox_due` and
-- `outbox_parked`, with when it stopped (`stopped_at`), and pruned a day later by `outbox_stopped`.
-- The runs parked for a stop before this migration become stopped runs too.
-- 0001's CHECK allowed only 'pending' and 'parked', and SQLite cannot alter a CHECK: `outbox` is
-- built again (SQLite's documented way: a new table, its rows copied, the old one dropped, the new
-- one renamed), its columns in their order of 0001–0018, `stopped_at` last, and its indexes as
-- 0015/0016 left them. This reads and writes `outbox` once, at this migration.
CREATE TABLE outbox_0019 (
  idempotency_key       TEXT PRIMARY KEY,
  workspace             TEXT NOT NULL,
  effect                TEXT NOT NULL,
  payload               TEXT NOT NULL,
  rate_key              TEXT,
  status                TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'parked', 'stopped')),
  attempts              INTEGER NOT NULL DEFAULT 0,
  next_attempt_at       INTEGER NOT NULL,
  claim_token           TEXT,
  claim_expires_at      INTEGER,
  last_error            TEXT,
  created_at            INTEGER NOT NULL,
  parked_at             INTEGER,
  steps                 TEXT NOT NULL DEFAULT '{}',
  followed_up_at        INTEGER,
  claimed_at            INTEGER,
  posts_uncertain_since INTEGER,
  turn                  TEXT,
  turn_seq              INTEGER,
  turn_after            TEXT,
  stopped_at            INTEGER
) WITHOUT ROWID;
INSERT INTO outbox_0019 (idempotency_key, workspace, effect, payload, rate_key, status, attempts, next_attempt_at,
    claim_token, claim_expires_at, last_error, created_at, parked_at, steps, followed_up_at, claimed_at,
    posts_uncertain_since, turn, turn_seq, turn_after)
  SELECT idempotency_key, workspace, effect, payload, rate_key, status, attempts, next_attempt_at,
    claim_token, claim_expires_at, last_error, created_at, parked_at, steps, followed_up_at, claimed_at,
    posts_uncertain_since, turn, turn_seq, turn_after
  FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_0019 RENAME TO outbox;
CREATE INDEX outbox_turns ON outbox (turn, turn_seq) WHERE turn_seq IS NOT NULL;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending' AND claim_token IS NULL AND next_attempt_at <> 8640000000000000;
CREATE INDEX outbox_parked ON outbox (parked_at) WHERE status = 'parked';
CREATE INDEX outbox_stopped ON outbox (stopped_at) WHERE status = 'stopped';
UPDATE outbox SET status = 'stopped', stopped_at = parked_at, parked_at = NULL
  WHERE status = 'parked' AND last_error IN ('stopped by user', 'interrupted by a newer message');
