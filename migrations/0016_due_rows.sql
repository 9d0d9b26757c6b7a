-- Claims, wake-ups and the dead-letter list read index ranges, not the backlog (issue 40): with a
-- million rows waiting (Slack down for an hour), a scan of `outbox` took seconds and every ingest
-- waited behind it. Both indexes are partial, so the rows an ordinary event writes enter neither: a
-- row is written leased to its immediate attempt (`claim_token` set) and deleted by its completion,
-- and costs no index entry (rows written per event are unchanged). A row enters `outbox_due` only
-- while it waits unleased — for its retry, its pace, a suspended run's wake-up, the sweep — and
-- `outbox_parked` only while it is parked. A lease that runs out is found by its key
-- (src/recording/outboxLeases.ts), never through an index. A turn written while its thread is held
-- has `next_attempt_at` 8640000000000000 (src/recording/turnMarks.ts HELD_TURN_AT) and is outside
-- `outbox_due` too (it is found by `outbox_turns` when the turn before it ends), so it costs what it
-- did. Creating the indexes reads `outbox` once, at this migration.
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending' AND claim_token IS NULL AND next_attempt_at <> 8640000000000000;
CREATE INDEX outbox_parked ON outbox (parked_at) WHERE status = 'parked';
