-- Durable waits for a person (a run's `waitForAction`): one row per wait, opened before its
-- question is posted, so a click can never come before the wait it answers. `wait_id` is random
-- and is what the question's buttons name (their block_id): a click names no other wait. A wait
-- is `open` until a click answers it (`answered`, its `answer` kept), the run reads that answer
-- (`closed`), or its deadline passes first (`timed_out`). Rows are pruned a day after their deadline.
CREATE TABLE waits (
  wait_id TEXT PRIMARY KEY,
  run_key TEXT NOT NULL,
  name TEXT NOT NULL,
  channel TEXT NOT NULL,
  message_ts TEXT,
  deadline INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'open',
  answer TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (run_key, name)
);
CREATE INDEX waits_by_deadline ON waits (deadline);
