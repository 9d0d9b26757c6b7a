-- The watch: each `app_rate_limited` envelope Slack sent (it stopped sending a workspace's events
-- for a minute: more than 30,000 in an hour), one row per workspace and limited minute, so a
-- repeat of the envelope alerts and counts once. Kept 7 days. Every shard gets the table; only
-- the watch writes it.
CREATE TABLE app_rate_limited (
  workspace   TEXT    NOT NULL,
  minute      INTEGER NOT NULL, -- Slack's minute_rate_limited (seconds since the epoch)
  received_at INTEGER NOT NULL,
  PRIMARY KEY (workspace, minute)
) WITHOUT ROWID;
