-- Turns no one can hold (issue 41): a run suspended in `sleep` / `waitForAction` gives its thread's
-- turn back, and takes a new one when it wakes (recording/suspendedTurns.ts).
--
-- `turn_released`: the conversation of a suspended run's turn while it is given back; its `turn`,
-- `turn_seq` and `turn_after` are NULL meanwhile, so nothing that asks who holds a thread (the turns
-- index, a lead by key, the walk's leads) counts it. Its index: the stop button finds it there.
ALTER TABLE outbox ADD COLUMN turn_released TEXT;
CREATE INDEX outbox_released_turns ON outbox (turn_released) WHERE turn_released IS NOT NULL;
