-- The title a user chose for an agent session (Slack's `agent_session_title_changed`, issue 45):
-- kept by the thread's `titleChanged` run so a later `setTitle()` of the app does not rename the
-- session over it unless it says `{ overwrite: true }`. One row per thread (its team, DM channel
-- and root `ts`), the latest event wins (`event_at`, microseconds); pruned with the thread
-- contexts (`saved_at`) and deleted with its workspace's installation.
CREATE TABLE session_titles (
  team TEXT NOT NULL,
  channel TEXT NOT NULL,
  thread_ts TEXT NOT NULL,
  title TEXT NOT NULL,
  event_at INTEGER NOT NULL,
  saved_at INTEGER NOT NULL,
  workspace TEXT NOT NULL,
  PRIMARY KEY (team, channel, thread_ts)
) WITHOUT ROWID;
CREATE INDEX session_titles_by_saved_at ON session_titles (saved_at);
