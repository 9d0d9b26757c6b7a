-- The stop button's durable record for the runs a stop cannot find by index (issue 40): a stop
-- parks its conversation's turns (found by `outbox_turns` and the shard's leads) and the rows in an
-- attempt or leased out (by key), never by a scan of the backlog. A run that is no turn and waits
-- unleased (a retry) is checked here when it begins: recorded before its user's last stop in its
-- conversation, it is stopped then. One row per conversation and user, written once per stop
-- (a click), pruned a week after it.
CREATE TABLE conversation_stops (
  conversation TEXT NOT NULL,
  user         TEXT NOT NULL,
  stopped_at   INTEGER NOT NULL,
  PRIMARY KEY (conversation, user)
) WITHOUT ROWID;
