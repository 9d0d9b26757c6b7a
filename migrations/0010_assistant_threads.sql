-- The context of each assistant thread (the channel the user is viewing beside it: Slack's
-- `assistant_thread.context`), saved by the app's `saveThreadContext()` — by default on every
-- `assistant_thread_context_changed` — and read by `getThreadContext()` in the thread's later
-- runs. Kept in the shard that records the thread's deliveries; one row per thread, last write wins.
CREATE TABLE assistant_threads (
  team TEXT NOT NULL,
  channel TEXT NOT NULL,
  thread_ts TEXT NOT NULL,
  context TEXT NOT NULL,
  saved_at INTEGER NOT NULL,
  PRIMARY KEY (team, channel, thread_ts)
) WITHOUT ROWID;
