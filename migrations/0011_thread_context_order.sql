-- Thread contexts ordered, owned and aged: `event_at` is when Slack says the saving event happened
-- (its `event_ts`, in microseconds), so a retried run of an older event never saves over a newer
-- context; `workspace` is the installation it belongs to, deleted with it on `app_uninstalled` /
-- `tokens_revoked`; the index on `saved_at` lets the alarm prune contexts older than
-- THREAD_CONTEXT_RETENTION_DAYS and find the oldest in one read. Rows of before this migration
-- have neither: any save replaces them, and they belong to the shard's own workspace.
ALTER TABLE assistant_threads ADD COLUMN event_at INTEGER;
ALTER TABLE assistant_threads ADD COLUMN workspace TEXT;
CREATE INDEX assistant_threads_by_saved_at ON assistant_threads (saved_at);
