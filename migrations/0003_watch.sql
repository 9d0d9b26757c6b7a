-- The watch: one reserved shard (named "watch", which no workspace shard can be, as theirs are
-- "{workspace}/{bucket}") keeps what alerts and the guard against Slack's auto-disable need.
-- Every shard gets the tables; only the watch writes them.

-- Answers the edge gave Slack, per minute and cause ("2xx", or the status: "401", "503", …),
-- summed per flush of each Worker instance's tally: no row is written per request.
CREATE TABLE answer_counts (
  minute INTEGER NOT NULL,
  cause  TEXT    NOT NULL,
  n      INTEGER NOT NULL,
  PRIMARY KEY (minute, cause)
) WITHOUT ROWID;

-- The guard's one row: when it last alerted, and whether the failure ratio is above the threshold now.
CREATE TABLE guard_state (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  alerted_at INTEGER,
  active     INTEGER NOT NULL DEFAULT 0
);

-- Consecutive failed attempts per destination (the relay URL; a Web API method in a workspace),
-- as shards report them. A row exists only during a streak; `alerted` is the highest threshold
-- (1, 5, 20) already alerted in this streak; a streak with no failure for a while is over.
CREATE TABLE destination_streaks (
  destination    TEXT PRIMARY KEY,
  label          TEXT    NOT NULL,
  failures       INTEGER NOT NULL,
  alerted        INTEGER NOT NULL DEFAULT 0,
  last_error     TEXT,
  last_key       TEXT,
  last_failed_at INTEGER NOT NULL
);

-- Parked effects per shard awaiting their batched alert (at most one per shard per minute).
CREATE TABLE parked_batches (
  shard       TEXT PRIMARY KEY,
  pending     INTEGER NOT NULL,
  last_reason TEXT,
  last_key    TEXT,
  alerted_at  INTEGER,
  due_at      INTEGER
);
