-- Turn budgets (issue 41, `limits`): how many turns each user, and the workspace, started in this
-- shard in the current UTC minute and UTC day (recording/turnBudgets.ts). One row per scope and key,
-- overwritten in place: a counted turn writes one row per scope it is counted in, an app without
-- `limits` none. Rows whose day is over go with the hourly prune (a small table: one row per user
-- who spoke under a limit since yesterday, so the prune's scan is short and needs no index).
CREATE TABLE turn_budgets (
  scope        TEXT NOT NULL,    -- 'user' | 'workspace'
  key          TEXT NOT NULL,    -- the user id, or the workspace id
  minute_start INTEGER NOT NULL, -- ms, the UTC minute the minute count is of
  minute_count INTEGER NOT NULL,
  day_start    INTEGER NOT NULL, -- ms, the UTC day the day count is of
  day_count    INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
