-- A stop is an outcome, not a failure (issue 46): a run its user stopped (the stop button) or a newer
-- message interrupted (`turns: "interrupt"`) is no longer a dead letter — never listed, replayed,
-- discarded with them, alerted on — but a stopped run, kept a day and then pruned by its own index.
--
-- Stored as `status = 'parked'` with `stopped_at` set: 0001's CHECK allows only 'pending' and
-- 'parked', and SQLite changes a CHECK only by rebuilding the table — at a backlog of a million
-- rows longer than a Durable Object's 30 s to start, so a shard would never open. The code reads
-- the status as `stopped` (recording/stoppedRows.ts, STATUS_OF). `outbox_parked` is built again to
-- hold only the dead letters, `outbox_stopped` holds the stopped runs; each build reads the table
-- once (as 0016's did). The runs parked for a stop before this migration become stopped runs.
ALTER TABLE outbox ADD COLUMN stopped_at INTEGER;
UPDATE outbox SET stopped_at = parked_at
  WHERE status = 'parked' AND last_error IN ('stopped by user', 'interrupted by a newer message');
DROP INDEX outbox_parked;
CREATE INDEX outbox_parked ON outbox (parked_at) WHERE status = 'parked' AND stopped_at IS NULL;
CREATE INDEX outbox_stopped ON outbox (stopped_at) WHERE status = 'parked' AND stopped_at IS NOT NULL;
