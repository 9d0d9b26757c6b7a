-- The receipt folded into the outbox row (issue 43 point 2; docs/design.md "An event's story"):
-- a delivery with at least one outbox row writes no receipt row of its own; the first row its
-- ingest INSERTs carries the receipt's columns instead — one row per event fewer. `receipt_key` is
-- the receipt's key (the delivery's dedupe key, or `fact:{row key}` for a fact-scoped row), so a
-- retry finds it by a primary-key range (`{dedupe key}:` … `{dedupe key};`) or by its exact key.
-- Nullable columns added in place: no rebuild, no index (an index entry would be a row per event).
-- A filed table (recording/outboxFiling.ts) is the renamed `outbox`, so it has them too.
ALTER TABLE outbox ADD COLUMN receipt_key TEXT;
ALTER TABLE outbox ADD COLUMN receipt_kind TEXT;
ALTER TABLE outbox ADD COLUMN receipt_type TEXT;
ALTER TABLE outbox ADD COLUMN retry_num INTEGER;
ALTER TABLE outbox ADD COLUMN retry_reason TEXT;
ALTER TABLE outbox ADD COLUMN response TEXT;
ALTER TABLE outbox ADD COLUMN received_at INTEGER;
ALTER TABLE outbox ADD COLUMN channel TEXT;
ALTER TABLE outbox ADD COLUMN user_id TEXT;
ALTER TABLE outbox ADD COLUMN thread_ts TEXT;
ALTER TABLE outbox ADD COLUMN effects TEXT;
ALTER TABLE outbox ADD COLUMN receipt_payload TEXT;
