-- Checkpoints of durable handlers: the result of each completed step() of a `run`
-- effect, so a retried run returns it instead of repeating the step. Deleted with
-- the run's outbox row when the run completes or is discarded.
CREATE TABLE steps (
  outbox_key TEXT NOT NULL,
  name       TEXT NOT NULL,
  result     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (outbox_key, name)
) WITHOUT ROWID;
