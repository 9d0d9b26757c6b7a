-- Bursts merged (issue 41): under `turns: "merge"` a user's messages in a thread that arrive before
-- their turn starts are given to one run. `merge_open` names the burst a merge turn's row takes in —
-- its conversation, user and listener (src/recording/mergedTurns.ts) — and is NULL on every other
-- row. A later message of that burst finds the row by it while the row has not started (no attempt,
-- never claimed) and is appended to its payload, in its ingest's transaction: no row of its own.
-- Partial index: a row that is no merge turn writes no index row.
ALTER TABLE outbox ADD COLUMN merge_open TEXT;
CREATE INDEX outbox_open_merges ON outbox (merge_open) WHERE merge_open IS NOT NULL;
