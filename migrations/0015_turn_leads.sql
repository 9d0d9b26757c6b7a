-- A thread's lead turn costs no index row (issue 32): a turn recorded while no other turn of its
-- conversation is pending — nearly every turn — is its thread's lead, written with `turn` set and
-- `turn_seq` NULL, outside the index (an index entry is a row written, billed like any). Its
-- shard remembers it (recording/outboxTurns.ts; a new instance reads the leads back once). A turn
-- recorded while others are pending gets its `turn_seq` (indexed, as before) and, in `turn_after`,
-- the key of the lead it waits for. Rows of before this migration all have their `turn_seq`.
-- A replayed turn is given `turn_seq` 0 if it had none, so turns recorded after it wait for it.
ALTER TABLE outbox ADD COLUMN turn_after TEXT;
DROP INDEX outbox_turns;
CREATE INDEX outbox_turns ON outbox (turn, turn_seq) WHERE turn_seq IS NOT NULL;
