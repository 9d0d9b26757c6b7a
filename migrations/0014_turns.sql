-- One turn at a time per conversation (issue 30): runs answering people's messages in one thread
-- run in arrival order. `turn` is the conversation's key (team:channel:thread_ts) on a row that is
-- a turn — a run of a user's message, mention or assistant message in a thread, under the `queue`
-- or `interrupt` policy — and NULL on every other row, rows of before this migration included:
-- those are never held back. `turn_seq` is the turn's place in its conversation, in the order the
-- shard recorded the deliveries (one delivery's rows share it), so the order survives a restart.
-- Partial index: a row that is no turn writes no index row (what a non-turn event costs is unchanged).
ALTER TABLE outbox ADD COLUMN turn TEXT;
ALTER TABLE outbox ADD COLUMN turn_seq INTEGER;
CREATE INDEX outbox_turns ON outbox (turn, turn_seq) WHERE turn IS NOT NULL;
