-- A stop is an outcome, not a failure (issue 46): a run its user stopped (the stop button) or a newer
-- message interrupted (`turns: "interrupt"`) is no longer parked — never listed among the dead
-- letters, alerted on or replayed — but kept as `status = 'stopped'`, outside `outbox_due` and
-- `outbox_parked`, with when it stopped (`stopped_at`), and pruned a day later by this index. The
-- runs parked for a stop before this migration become stopped runs too.
ALTER TABLE outbox ADD COLUMN stopped_at INTEGER;
CREATE INDEX outbox_stopped ON outbox (stopped_at) WHERE status = 'stopped';
UPDATE outbox SET status = 'stopped', stopped_at = parked_at, parked_at = NULL
  WHERE status = 'parked' AND last_error IN ('stopped by user', 'interrupted by a newer message');
